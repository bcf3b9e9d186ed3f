// Models and their prices, in USD per million tokens (and per request); saved as the config file's shape.
import { useState } from 'react';
import { Badge, Button, Group, Modal, NumberInput, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { adminApi, type AdminModel } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction } from './admin-actions.ts';
import { ConfirmDialog, type PendingConfirmation } from './ConfirmDialog.tsx';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';

/** As the server checks prices (src/admin/admin-number-rules.ts): never negative, bounded, exact to a micro-dollar. */
const PRICE_RULE = { optional: true, min: 0, max: 10_000, decimals: 6, format: usdBound };

const PRICE_FIELDS = [
  { field: 'input_per_mtok', label: 'Input per 1M tokens' },
  { field: 'cached_input_per_mtok', label: 'Cached input per 1M tokens' },
  { field: 'output_per_mtok', label: 'Output per 1M tokens' },
  { field: 'per_request', label: 'Per request' },
] as const;

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
      <Table.ScrollContainer minWidth={760}>
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
                  {model.id} {model.free ? <Badge size="xs">Free</Badge> : null}
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
      </Table.ScrollContainer>
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? `Prices of ${editing.id}` : 'Add model'}>
        {editing !== null ? <ModelForm existing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onDone={refresh} /> : null}
      </Modal>
    </Stack>
  );
}

function ModelForm({ existing, onClose, onDone }: { existing: AdminModel | null; onClose: () => void; onDone: () => unknown }) {
  const [id, setId] = useState(existing?.id ?? '');
  const [ownedBy, setOwnedBy] = useState(existing?.owned_by ?? 'system');
  const [free, setFree] = useState(existing?.free ?? false);
  const [prices, setPrices] = useState<Record<string, number | string>>(() =>
    Object.fromEntries(PRICE_FIELDS.map(({ field }) => [field, typeof existing?.[field] === 'number' ? (existing[field] as number) : ''])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    const problems = Object.fromEntries(Object.entries(prices).map(([field, value]) => [field, numberProblem(value, PRICE_RULE)]).filter(([, problem]) => problem !== null)) as Record<string, string>;
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    // Keep the fields this form does not show (image, audio, search prices, limits) as they were.
    const kept = existing ? Object.fromEntries(Object.entries(existing).filter(([field, value]) => value !== undefined && value !== null && !PRICE_FIELDS.some((p) => p.field === field))) : {};
    const body: Record<string, unknown> = { ...kept, id: id.trim(), owned_by: ownedBy.trim() || 'system', free };
    for (const { field } of PRICE_FIELDS) if (prices[field] !== '') body[field] = Number(prices[field]);
    if (await runAdminAction(() => adminApi.putModel(body), 'Model saved; it serves the next call.', onDone)) onClose();
  };
  return (
    <Stack>
      <TextInput label="Model id" value={id} onChange={(event) => setId(event.currentTarget.value)} disabled={existing !== null} />
      <TextInput label="Owned by" value={ownedBy} onChange={(event) => setOwnedBy(event.currentTarget.value)} />
      {PRICE_FIELDS.map(({ field, label }) => (
        <NumberInput key={field} label={`${label} (USD)`} {...exactNumberProps} value={prices[field]} onChange={(value) => setPrices({ ...prices, [field]: value })} error={errors[field]} />
      ))}
      <Switch label="Free (no price needed)" checked={free} onChange={(event) => setFree(event.currentTarget.checked)} />
      <Text size="xs" c="dimmed">
        A model without a price and not free is refused with 403 model_price_missing.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()}>Save model</Button>
      </Group>
    </Stack>
  );
}
