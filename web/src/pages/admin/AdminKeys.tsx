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
import { ConfirmDialog, type PendingConfirmation } from './ConfirmDialog.tsx';

export default function AdminKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['admin', 'keys'], queryFn: adminKeysApi.list });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'keys'] });
  const [editing, setEditing] = useState<AdminKeyRow | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const rows = (keys.data ?? []).filter((key) => showDeleted || key.status !== 'deleted');
  const askDelete = (key: AdminKeyRow) =>
    setConfirming({
      title: `Delete the key ${key.name} of ${key.user_email ?? key.user}?`,
      body: 'It stops working at once and can never be enabled again. Its calls stay in the logs.',
      confirmLabel: 'Delete key',
      run: () => runAdminAction(() => adminKeysApi.remove(key.id), 'Key deleted.', refresh),
    });
  return (
    <Stack>
      <Group justify="space-between">
        <Switch label="Show deleted keys" checked={showDeleted} onChange={(event) => setShowDeleted(event.currentTarget.checked)} />
        <Button onClick={() => setEditing('new')}>Create key for a user</Button>
      </Group>
      {keys.isError ? <ErrorNotice error={keys.error} /> : null}
      <Table.ScrollContainer minWidth={980}>
        <Table striped aria-label="All keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User</Table.Th>
              <Table.Th>Key</Table.Th>
              <Table.Th>Group</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Spent / quota</Table.Th>
              <Table.Th>Limits</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {key.user}
                  </Text>
                  {key.user_email ? (
                    <Text size="xs" c="dimmed">
                      {key.user_email}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{key.name}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {key.key_prefix}
                  </Text>
                </Table.Td>
                <Table.Td>{key.group_name}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={key.status === 'active' ? 'green' : 'red.9'}>
                    {key.status === 'active' ? 'Active' : key.status === 'disabled' ? 'Disabled' : 'Deleted'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {formatUsd(key.used_micros / 1_000_000)} / {key.quota_micros === null ? 'no quota' : formatUsd(key.quota_micros / 1_000_000)}
                </Table.Td>
                <Table.Td>
                  {key.rpm_limit ?? '—'} rpm / {key.tpm_limit ?? '—'} tpm
                </Table.Td>
                <Table.Td>{key.expires_at === null ? 'never' : formatDateTime(key.expires_at)}</Table.Td>
                <Table.Td>{key.last_used_at === null ? 'never' : formatDateTime(key.last_used_at)}</Table.Td>
                <Table.Td>
                  {key.status === 'deleted' ? null : (
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <Button size="xs" variant="default" aria-label={`Actions for key ${key.name} of ${key.user}`}>
                          Actions
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item onClick={() => setEditing(key)}>Edit</Menu.Item>
                        <Menu.Item onClick={() => void runAdminAction(() => adminKeysApi.update(key.id, { enabled: key.status !== 'active' }), key.status === 'active' ? 'Key disabled.' : 'Key enabled.', refresh)}>
                          {key.status === 'active' ? 'Disable' : 'Enable'}
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => askDelete(key)}>
                          Delete
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {keys.data && rows.length === 0 ? <Text c="dimmed">No keys yet. Create one for a user, or users make their own on the Keys page.</Text> : null}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? `Key ${editing.name} of ${editing.user}` : 'Create key for a user'} size="lg">
        {editing !== null ? (
          <AdminKeyForm
            key={editing === 'new' ? 'new' : editing.id}
            existing={editing === 'new' ? null : editing}
            submitLabel={editing === 'new' ? 'Create key' : 'Save key'}
            onCancel={() => setEditing(null)}
            onSubmit={async ({ user, name, ...fields }) => {
              if (editing === 'new') {
                const ok = await runAdminAction(async () => setSecret((await adminKeysApi.create({ user, name, ...fields })).key), null, refresh);
                if (ok) setEditing(null);
              } else if (await runAdminAction(() => adminKeysApi.update(editing.id, fields), 'Key saved.', refresh)) {
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
