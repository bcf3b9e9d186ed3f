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
import { McpSnippets } from './keys/McpSnippets.tsx';

type Dialog = { kind: 'create' } | { kind: 'edit'; key: ApiKey } | { kind: 'rotate'; key: ApiKey } | { kind: 'delete'; key: ApiKey } | null;

export default function KeysPage() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: keysApi.list });
  const groups = useQuery({ queryKey: ['groups'], queryFn: listGroups });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });

  const toggle = useMutation({
    mutationFn: (key: ApiKey) => keysApi.update(key.id, { enabled: key.status !== 'active' }),
    onSuccess: (key) => {
      notifications.show({ color: 'green', message: `${key.name} is ${key.status === 'active' ? 'enabled' : 'disabled'}.` });
      return refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      notifications.show({ color: 'red', message: error instanceof Error ? error.message : 'That did not work.' });
    } finally {
      setBusy(false);
    }
  };

  if (keys.isError) return <ErrorNotice error={keys.error} />;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Keys</Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>Create key</Button>
      </Group>
      {keys.data && keys.data.length === 0 ? <Text>You have no keys yet. Create one to call the API.</Text> : null}
      <Table.ScrollContainer minWidth={860}>
        <Table striped highlightOnHover aria-label="Your keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Key</Table.Th>
              <Table.Th>Group</Table.Th>
              <Table.Th>Restrictions</Table.Th>
              <Table.Th>Spent</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
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
                  <Text size="sm">{restrictionsOf(key)}</Text>
                </Table.Td>
                <Table.Td>{formatUsd(key.spent_usd)}</Table.Td>
                <Table.Td>{formatDateTime(key.created_at)}</Table.Td>
                <Table.Td>{key.last_used_at ? formatDateTime(key.last_used_at) : 'Never'}</Table.Td>
                <Table.Td>
                  <Badge color={key.status === 'active' ? 'green' : 'gray'} variant="filled">
                    {key.status === 'active' ? 'Active' : 'Disabled'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button size="xs" variant="default" aria-label={`Actions for ${key.name}`}>
                        Actions
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setDialog({ kind: 'edit', key })}>Edit</Menu.Item>
                      <Menu.Item onClick={() => toggle.mutate(key)}>{key.status === 'active' ? 'Disable' : 'Enable'}</Menu.Item>
                      <Menu.Item onClick={() => setDialog({ kind: 'rotate', key })}>Rotate</Menu.Item>
                      <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', key })}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Modal opened={dialog?.kind === 'create' || dialog?.kind === 'edit'} onClose={() => setDialog(null)} title={dialog?.kind === 'edit' ? `Edit ${dialog.key.name}` : 'Create key'} size="lg">
        {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
          <KeyForm
            initial={keyFormValues(dialog.kind === 'edit' ? dialog.key : undefined)}
            groups={groups.data ?? []}
            submitLabel={dialog.kind === 'edit' ? 'Save' : 'Create key'}
            busy={busy}
            onCancel={() => setDialog(null)}
            onSubmit={(values, form) =>
              void (async () => {
                setBusy(true);
                try {
                  if (dialog.kind === 'edit') {
                    await keysApi.update(dialog.key.id, keyChanges(values));
                    notifications.show({ color: 'green', message: 'The key is saved.' });
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

      <Modal opened={dialog?.kind === 'rotate'} onClose={() => setDialog(null)} title="Rotate this key?">
        <Stack>
          <Text>A new secret replaces the old one, with the same settings. The old secret stops working at once.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
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
              Rotate key
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog?.kind === 'delete'} onClose={() => setDialog(null)} title="Delete this key?">
        <Stack>
          <Text>
            {dialog?.kind === 'delete' ? <strong>{dialog.key.name}</strong> : null} stops working at once and can never be enabled again. Its usage stays in
            your logs.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={() =>
                dialog?.kind === 'delete' &&
                act(async () => {
                  await keysApi.remove(dialog.key.id);
                  notifications.show({ color: 'green', message: 'The key is deleted.' });
                  setDialog(null);
                  await refresh();
                })
              }
            >
              Delete key
            </Button>
          </Group>
        </Stack>
      </Modal>

      <SecretOnce secret={secret} onClose={() => setSecret(null)} />
      <McpSnippets />
    </Stack>
  );
}

function restrictionsOf(key: ApiKey): string {
  const parts: string[] = [];
  if (key.models) parts.push(`${key.models.length} model${key.models.length === 1 ? '' : 's'}`);
  if (key.quota_usd !== null) parts.push(`quota ${formatUsd(key.quota_usd)}`);
  if (key.expires_at) parts.push(`expires ${formatDateTime(key.expires_at)}`);
  if (key.ip_allowlist) parts.push(`${key.ip_allowlist.length} IP range${key.ip_allowlist.length === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(' · ') : 'None';
}
