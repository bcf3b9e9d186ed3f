import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Table, TextInput } from '@mantine/core';
import { adminApi, type AdminGroup } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction } from './admin-actions.ts';
import { ConfirmDialog, type PendingConfirmation } from '../../components/ConfirmDialog.tsx';
import { exactNumberProps, numberProblems } from '../../components/number-rules.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

const MAX_RATE_LIMIT = 2_147_483_647;
/** As the server checks them (src/admin/admin-number-rules.ts): no free groups, a ratio exact to a millionth. */
const RULES = {
  ratio: { min: 0, above: true, max: 100, decimals: 6 },
  rpm: { optional: true, integer: true, min: 1, max: MAX_RATE_LIMIT },
  tpm: { optional: true, integer: true, min: 1, max: MAX_RATE_LIMIT },
};

export default function AdminGroups() {
  const { list: groups, refresh, editing, setEditing } = useAdminCollection<AdminGroup>('groups', adminApi.groups);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const { t } = useTranslation();
  return (
    <Stack>
      <AdminToolbar addLabel={t('admin.groups.add')} onAdd={() => setEditing('new')} error={groups.isError ? groups.error : null} />
      <CardTable minWidth={640}>
        <Table striped aria-label={t('admin.groups.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.users.name')}</Table.Th>
              <Table.Th>{t('admin.groups.ratio')}</Table.Th>
              <Table.Th>{t('admin.groups.description')}</Table.Th>
              <Table.Th>{t('admin.groups.limits')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(groups.data ?? []).map((group) => (
              <Table.Tr key={group.name}>
                <Table.Td fw={500} data-user-content>
                  {group.name}
                </Table.Td>
                <Table.Td>×{group.ratio}</Table.Td>
                <Table.Td data-user-content>{group.description ?? '—'}</Table.Td>
                <Table.Td>
                  {group.rpm_limit ?? '—'} / {group.tpm_limit ?? '—'}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(group)}>
                      {t('keys.edit')}
                    </Button>
                    {group.name === 'default' ? null : (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        aria-label={t('admin.deleteNamed', { name: group.name })}
                        onClick={() =>
                          setConfirming({
                            title: t('admin.groups.deleteTitle', { name: group.name }),
                            body: t('admin.groups.deleteBody'),
                            confirmLabel: t('admin.groups.delete'),
                            run: () => runAdminAction(() => adminApi.deleteGroup(group.name), t('admin.deletedNamed', { name: group.name }), refresh),
                          })
                        }
                      >
                        {t('keys.delete')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? t('keys.editTitle', { name: editing.name }) : t('admin.groups.add')}>
        {editing !== null ? <GroupForm existing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onDone={refresh} /> : null}
      </Modal>
    </Stack>
  );
}

function GroupForm({ existing, onClose, onDone }: { existing: AdminGroup | null; onClose: () => void; onDone: () => unknown }) {
  const [name, setName] = useState(existing?.name ?? '');
  const [ratio, setRatio] = useState<number | string>(existing?.ratio ?? 1);
  const [description, setDescription] = useState(existing?.description ?? '');
  const [rpm, setRpm] = useState<number | string>(existing?.rpm_limit ?? '');
  const [tpm, setTpm] = useState<number | string>(existing?.tpm_limit ?? '');
  const [errors, setErrors] = useState<Partial<Record<keyof typeof RULES, string>>>({});
  const { t } = useTranslation();
  const submit = async () => {
    const problems = numberProblems({ ratio, rpm, tpm }, RULES);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const body: Record<string, unknown> = { name: name.trim(), ratio: Number(ratio), ...(description.trim() ? { description: description.trim() } : {}) };
    if (rpm !== '') body.rpm_limit = Number(rpm);
    if (tpm !== '') body.tpm_limit = Number(tpm);
    if (await runAdminAction(() => adminApi.putGroup(body), t('admin.groups.saved'), onDone)) onClose();
  };
  return (
    <Stack>
      <TextInput label={t('admin.users.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} disabled={existing !== null} />
      <NumberInput label={t('admin.groups.ratio')} description={t('admin.groups.ratioHint')} {...exactNumberProps} value={ratio} onChange={setRatio} error={errors.ratio} />
      <TextInput label={t('admin.groups.description')} value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
      <Group grow>
        <NumberInput label={t('admin.groups.rpm')} {...exactNumberProps} value={rpm} onChange={setRpm} error={errors.rpm} />
        <NumberInput label={t('admin.groups.tpm')} {...exactNumberProps} value={tpm} onChange={setTpm} error={errors.tpm} />
      </Group>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('keys.cancel')}
        </Button>
        <Button onClick={() => void submit()}>{t('admin.groups.save')}</Button>
      </Group>
    </Stack>
  );
}
