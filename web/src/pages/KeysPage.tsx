// The user's keys: a table with every restriction, "Create key", and per key edit, disable or enable,
// rotate and delete (each destructive action confirmed). A new secret is shown once.
import { useState } from 'react';
import { Badge, Button, Group, Menu, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { keysApi, listGroups, type ApiKey } from '../api/keys-api.ts';
import { applyServerError } from '../api/form-errors.ts';
import { formatDateTime, formatUsd } from '../components/format.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { KeyForm, keyChanges, keyFormValues } from './keys/KeyForm.tsx';
import { SecretOnce } from './keys/SecretOnce.tsx';
import { EmptyState } from '../components/EmptyState.tsx';
import { IconKey } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { CardTable } from '../components/CardTable.tsx';
import { McpSnippets } from './keys/McpSnippets.tsx';

type Dialog = { kind: 'create' } | { kind: 'edit'; key: ApiKey } | { kind: 'rotate'; key: ApiKey } | { kind: 'delete'; key: ApiKey } | null;

export default function KeysPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: keysApi.list });
  const groups = useQuery({ queryKey: ['groups'], queryFn: listGroups });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });

  const toggle = useMutation({
    mutationFn: (key: ApiKey) => keysApi.update(key.id, { enabled: !key.enabled }),
    onSuccess: (key) => {
      notifications.show({ color: 'green', message: key.enabled ? t('keys.enabledNote', { name: key.name }) : t('keys.disabledNote', { name: key.name }) });
      return refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      notifications.show({ color: 'red', message: error instanceof Error ? error.message : t('keys.didNotWork') });
    } finally {
      setBusy(false);
    }
  };

  if (keys.isError) return <ErrorNotice error={keys.error} />;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('keys.title')}</Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>{t('keys.create')}</Button>
      </Group>
      {keys.data && keys.data.length === 0 ? (
        <EmptyState icon={IconKey} title={t('empty.noKeysTitle')} testId="no-keys" action={<Button onClick={() => setDialog({ kind: 'create' })}>{t('empty.createFirstKey')}</Button>}>
          <Text maw={520}>{t('empty.noKeysBody')}</Text>
        </EmptyState>
      ) : null}
      {keys.data?.length === 0 ? null : (
      <CardTable minWidth={860}>
        <Table striped highlightOnHover aria-label={t('keys.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('keys.name')}</Table.Th>
              <Table.Th>{t('keys.key')}</Table.Th>
              <Table.Th>{t('keys.group')}</Table.Th>
              <Table.Th>{t('keys.restrictions')}</Table.Th>
              <Table.Th>{t('keys.spent')}</Table.Th>
              <Table.Th>{t('keys.created')}</Table.Th>
              <Table.Th>{t('keys.lastUsed')}</Table.Th>
              <Table.Th>{t('keys.status')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(keys.data ?? []).map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td fw={500}>{key.name}</Table.Td>
                <Table.Td>
                  <Text ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {key.prefix}
                  </Text>
                </Table.Td>
                <Table.Td>{key.group}</Table.Td>
                <Table.Td>
                  <Text size="sm">{restrictionsOf(key, t)}</Text>
                </Table.Td>
                <Table.Td>{formatUsd(key.spent_usd)}</Table.Td>
                <Table.Td>{formatDateTime(key.created_at)}</Table.Td>
                <Table.Td>{key.last_used_at ? formatDateTime(key.last_used_at) : t('keys.never')}</Table.Td>
                <Table.Td>
                  <Badge color={key.enabled ? 'green' : 'gray'} variant="filled">
                    {key.enabled ? t('keys.active') : t('keys.disabled')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button size="xs" variant="default" aria-label={t('keys.actionsFor', { name: key.name })}>
                        {t('keys.actions')}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setDialog({ kind: 'edit', key })}>{t('keys.edit')}</Menu.Item>
                      <Menu.Item onClick={() => toggle.mutate(key)}>{key.enabled ? t('keys.disable') : t('keys.enable')}</Menu.Item>
                      <Menu.Item onClick={() => setDialog({ kind: 'rotate', key })}>{t('keys.rotate')}</Menu.Item>
                      <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', key })}>
                        {t('keys.delete')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      )}

      <Modal opened={dialog?.kind === 'create' || dialog?.kind === 'edit'} onClose={() => setDialog(null)} title={dialog?.kind === 'edit' ? t('keys.editTitle', { name: dialog.key.name }) : t('keys.create')} size="lg">
        {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
          <KeyForm
            initial={keyFormValues(dialog.kind === 'edit' ? dialog.key : undefined)}
            groups={groups.data ?? []}
            submitLabel={dialog.kind === 'edit' ? t('keys.save') : t('keys.create')}
            busy={busy}
            onCancel={() => setDialog(null)}
            onSubmit={(values, form) =>
              void (async () => {
                setBusy(true);
                try {
                  if (dialog.kind === 'edit') {
                    await keysApi.update(dialog.key.id, keyChanges(values));
                    notifications.show({ color: 'green', message: t('keys.saved') });
                  } else {
                    const created = await keysApi.create(keyChanges(values));
                    setSecret(created.secret);
                  }
                  setDialog(null);
                  await refresh();
                } catch (error) {
                  const message = applyServerError(error, form, ['name', 'group', 'models', 'quota_usd', 'expires_at', 'ip_allowlist']);
                  if (message) notifications.show({ color: 'red', message });
                } finally {
                  setBusy(false);
                }
              })()
            }
          />
        ) : null}
      </Modal>

      <Modal opened={dialog?.kind === 'rotate'} onClose={() => setDialog(null)} title={t('keys.rotateTitle')}>
        <Stack>
          <Text>{t('keys.rotateBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('keys.cancel')}
            </Button>
            <Button
              loading={busy}
              onClick={() =>
                dialog?.kind === 'rotate' &&
                act(async () => {
                  setSecret(await keysApi.rotate(dialog.key.id));
                  setDialog(null);
                  await refresh();
                })
              }
            >
              {t('keys.rotateKey')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog?.kind === 'delete'} onClose={() => setDialog(null)} title={t('keys.deleteTitle')}>
        <Stack>
          <Text>
            {dialog?.kind === 'delete' ? <Trans i18nKey="keys.deleteBody" values={{ name: dialog.key.name }} components={{ strong: <strong /> }} /> : null}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('keys.cancel')}
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={() =>
                dialog?.kind === 'delete' &&
                act(async () => {
                  await keysApi.remove(dialog.key.id);
                  notifications.show({ color: 'green', message: t('keys.deleted') });
                  setDialog(null);
                  await refresh();
                })
              }
            >
              {t('keys.deleteKey')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <SecretOnce secret={secret} onClose={() => setSecret(null)} />
      <McpSnippets />
    </Stack>
  );
}

function restrictionsOf(key: ApiKey, t: TFunction): string {
  const parts: string[] = [];
  if (key.models) parts.push(t('keys.models', { count: key.models.length }));
  if (key.quota_usd !== null) parts.push(t('keys.quota', { amount: formatUsd(key.quota_usd) }));
  if (key.expires_at) parts.push(t('keys.expires', { date: formatDateTime(key.expires_at) }));
  if (key.ip_allowlist) parts.push(t('keys.ipRanges', { count: key.ip_allowlist.length }));
  return parts.length > 0 ? parts.join(' · ') : t('keys.none');
}
