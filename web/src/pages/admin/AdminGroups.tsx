import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Table, TextInput } from '@mantine/core';
import { adminApi, type AdminGroup } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction } from './admin-actions.ts';

export default function AdminGroups() {
  const { list: groups, refresh, editing, setEditing } = useAdminCollection<AdminGroup>('groups', adminApi.groups);
  return (
    <Stack>
      <AdminToolbar addLabel="Add group" onAdd={() => setEditing('new')} error={groups.isError ? groups.error : null} />
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label="Groups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Price ratio</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>RPM / TPM limit</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(groups.data ?? []).map((group) => (
              <Table.Tr key={group.name}>
                <Table.Td fw={500}>{group.name}</Table.Td>
                <Table.Td>×{group.ratio}</Table.Td>
                <Table.Td>{group.description ?? '—'}</Table.Td>
                <Table.Td>
                  {group.rpm_limit ?? '—'} / {group.tpm_limit ?? '—'}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(group)}>
                      Edit
                    </Button>
                    {group.name === 'default' ? null : (
                      <Button size="xs" variant="subtle" color="red" onClick={() => void runAdminAction(() => adminApi.deleteGroup(group.name), `${group.name} deleted.`, refresh)}>
                        Delete
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? `Edit ${editing.name}` : 'Add group'}>
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
  const submit = async () => {
    const body: Record<string, unknown> = { name: name.trim(), ratio: Number(ratio), ...(description.trim() ? { description: description.trim() } : {}) };
    if (rpm !== '') body.rpm_limit = Number(rpm);
    if (tpm !== '') body.tpm_limit = Number(tpm);
    if (await runAdminAction(() => adminApi.putGroup(body), 'Group saved.', onDone)) onClose();
  };
  return (
    <Stack>
      <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} disabled={existing !== null} />
      <NumberInput label="Price ratio" description="Prices of this group's calls are multiplied by it." min={0} decimalScale={4} value={ratio} onChange={setRatio} />
      <TextInput label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
      <Group grow>
        <NumberInput label="RPM limit" min={1} allowDecimal={false} value={rpm} onChange={setRpm} />
        <NumberInput label="TPM limit" min={1} allowDecimal={false} value={tpm} onChange={setTpm} />
      </Group>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()}>Save group</Button>
      </Group>
    </Stack>
  );
}
