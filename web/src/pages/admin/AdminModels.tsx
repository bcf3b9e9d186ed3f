// Models and their prices, in USD per million tokens (and per request); saved as the config file's shape.
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Table } from '@mantine/core';
import { adminApi, type AdminModel } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction } from './admin-actions.ts';
import { ModelForm } from './ModelForm.tsx';
import { ConfirmDialog, type PendingConfirmation } from './ConfirmDialog.tsx';
import { CardTable } from '../../components/CardTable.tsx';

const price = (value: unknown) => (typeof value === 'number' ? `$${value}` : '—');

export default function AdminModels() {
  const { list: models, refresh, editing, setEditing } = useAdminCollection<AdminModel>('models', adminApi.models);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const askDelete = (model: AdminModel) =>
    setConfirming({
      title: `Delete ${model.id}?`,
      body: 'Its prices are removed at once: calls to it are refused (no price) until it is added again. Its past calls stay in the logs.',
      confirmLabel: 'Delete model',
      run: () => runAdminAction(() => adminApi.deleteModel(model.id), `${model.id} deleted.`, refresh),
    });
  return (
    <Stack>
      <AdminToolbar addLabel="Add model" onAdd={() => setEditing('new')} error={models.isError ? models.error : null} />
      <CardTable minWidth={760}>
        <Table striped aria-label="Models and prices">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Model</Table.Th>
              <Table.Th>Owned by</Table.Th>
              <Table.Th>Input / 1M</Table.Th>
              <Table.Th>Output / 1M</Table.Th>
              <Table.Th>Per request</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(models.data ?? []).map((model) => (
              <Table.Tr key={model.id}>
                <Table.Td fw={500}>
                  {model.id} {model.free ? <Badge size="xs">Free</Badge> : null}{' '}
                  {Array.isArray(model.tiers) && model.tiers.length > 0 ? <Badge size="xs" variant="light">{`${model.tiers.length} long-context tier${model.tiers.length === 1 ? '' : 's'}`}</Badge> : null}
                </Table.Td>
                <Table.Td>{model.owned_by}</Table.Td>
                <Table.Td>{price(model.input_per_mtok)}</Table.Td>
                <Table.Td>{price(model.output_per_mtok)}</Table.Td>
                <Table.Td>{price(model.per_request)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(model)}>
                      Edit
                    </Button>
                    <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${model.id}`} onClick={() => askDelete(model)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
      <Modal size="xl" opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? `Prices of ${editing.id}` : 'Add model'}>
        {editing !== null ? <ModelForm existing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onDone={refresh} /> : null}
      </Modal>
    </Stack>
  );
}
