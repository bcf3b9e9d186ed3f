// Every user's keys (never their secrets): whose, which group, spent against the quota, expiry and last use;
// create a key for any user (its secret shown once), change its restrictions and limits, disable it, or
// delete it for good after confirming.
import { useState } from 'react';
import { Badge, Button, Group, Menu, Modal, Stack, Switch, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminKeysApi, type AdminKeyRow } from '../../api/admin-ops-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime, formatUsd } from '../../components/format.ts';
import { SecretOnce } from '../keys/SecretOnce.tsx';
import { runAdminAction } from './admin-actions.ts';
import { AdminKeyForm } from './AdminKeyForm.tsx';
import { ConfirmDialog, type PendingConfirmation } from '../../components/ConfirmDialog.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

export default function AdminKeys() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const keys = useQuery({ queryKey: ['admin', 'keys'], queryFn: adminKeysApi.list });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'keys'] });
  const [editing, setEditing] = useState<AdminKeyRow | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const rows = (keys.data ?? []).filter((key) => showDeleted || key.status !== 'deleted');
  const askDelete = (key: AdminKeyRow) =>
    setConfirming({
      title: t('admin.keys.deleteTitle', { name: key.name, who: key.user_email ?? key.user }),
      body: t('admin.keys.deleteBody'),
      confirmLabel: t('keys.deleteKey'),
      run: () => runAdminAction(() => adminKeysApi.remove(key.id), t('admin.keys.deleted'), refresh),
    });
  return (
    <Stack>
      <Group justify="space-between">
        <Switch label={t('admin.keys.showDeleted')} checked={showDeleted} onChange={(event) => setShowDeleted(event.currentTarget.checked)} />
        <Button onClick={() => setEditing('new')}>{t('admin.keys.createForUser')}</Button>
      </Group>
      {keys.isError ? <ErrorNotice error={keys.error} /> : null}
      <CardTable minWidth={980}>
        <Table striped aria-label={t('admin.keys.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.payments.user')}</Table.Th>
              <Table.Th>{t('keys.key')}</Table.Th>
              <Table.Th>{t('keys.group')}</Table.Th>
              <Table.Th>{t('wallet.status')}</Table.Th>
              <Table.Th>{t('admin.keys.spentQuota')}</Table.Th>
              <Table.Th>{t('admin.keys.limits')}</Table.Th>
              <Table.Th>{t('admin.keys.expires')}</Table.Th>
              <Table.Th>{t('keys.lastUsed')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Text size="sm" fw={500} data-user-content>
                    {key.user}
                  </Text>
                  {key.user_email ? (
                    <Text size="xs" c="dimmed">
                      {key.user_email}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" data-user-content>
                    {key.name}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {key.key_prefix}
                  </Text>
                </Table.Td>
                <Table.Td data-user-content>{key.group_name}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={key.status === 'active' ? 'green' : 'red.9'}>
                    {key.status === 'active' ? t('keys.active') : key.status === 'disabled' ? t('keys.disabled') : t('admin.keys.deletedStatus')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {formatUsd(key.used_micros / 1_000_000)} / {key.quota_micros === null ? t('admin.keys.noQuota') : formatUsd(key.quota_micros / 1_000_000)}
                </Table.Td>
                <Table.Td>
                  {t('admin.keys.rates', { rpm: key.rpm_limit ?? '—', tpm: key.tpm_limit ?? '—' })}
                </Table.Td>
                <Table.Td>{key.expires_at === null ? t('admin.never') : formatDateTime(key.expires_at)}</Table.Td>
                <Table.Td>{key.last_used_at === null ? t('admin.never') : formatDateTime(key.last_used_at)}</Table.Td>
                <Table.Td>
                  {key.status === 'deleted' ? null : (
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <Button size="xs" variant="default" aria-label={t('admin.keys.actionsFor', { name: key.name, who: key.user })}>
                          {t('keys.actions')}
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item onClick={() => setEditing(key)}>{t('keys.edit')}</Menu.Item>
                        <Menu.Item onClick={() => void runAdminAction(() => adminKeysApi.update(key.id, { enabled: key.status !== 'active' }), key.status === 'active' ? t('admin.keys.disabled') : t('admin.keys.enabled'), refresh)}>
                          {key.status === 'active' ? t('keys.disable') : t('keys.enable')}
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => askDelete(key)}>
                          {t('keys.delete')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      {keys.data && rows.length === 0 ? <Text c="dimmed">{t('admin.keys.none')}</Text> : null}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? t('admin.keys.editTitle', { name: editing.name, who: editing.user }) : t('admin.keys.createForUser')} size="lg">
        {editing !== null ? (
          <AdminKeyForm
            key={editing === 'new' ? 'new' : editing.id}
            existing={editing === 'new' ? null : editing}
            submitLabel={editing === 'new' ? t('keys.create') : t('admin.keys.save')}
            onCancel={() => setEditing(null)}
            onSubmit={async ({ user, name, ...fields }) => {
              if (editing === 'new') {
                const ok = await runAdminAction(async () => setSecret((await adminKeysApi.create({ user, name, ...fields })).key), null, refresh);
                if (ok) setEditing(null);
              } else if (await runAdminAction(() => adminKeysApi.update(editing.id, fields), t('admin.keys.saved'), refresh)) {
                setEditing(null);
              }
            }}
          />
        ) : null}
      </Modal>
      <SecretOnce secret={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
    </Stack>
  );
}
