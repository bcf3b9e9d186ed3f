// Models and their prices, in USD per million tokens (and per request); saved as the config file's shape.
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Table } from '@mantine/core';
import { adminApi, type AdminModel } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction } from './admin-actions.ts';
import { ModelForm } from './ModelForm.tsx';
import { ConfirmDialog, type PendingConfirmation } from '../../components/ConfirmDialog.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { formatUsd } from '../../components/format.ts';
import { useTranslation } from 'react-i18next';

const price = (value: unknown) => (typeof value === 'number' ? formatUsd(value) : '—');

export default function AdminModels() {
  const { list: models, refresh, editing, setEditing } = useAdminCollection<AdminModel>('models', adminApi.models);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const { t } = useTranslation();
  const askDelete = (model: AdminModel) =>
    setConfirming({
      title: t('admin.models.deleteTitle', { id: model.id }),
      body: t('admin.models.deleteBody'),
      confirmLabel: t('admin.models.delete'),
      run: () => runAdminAction(() => adminApi.deleteModel(model.id), t('admin.deletedNamed', { name: model.id }), refresh),
    });
  return (
    <Stack>
      <AdminToolbar addLabel={t('admin.models.add')} onAdd={() => setEditing('new')} error={models.isError ? models.error : null} />
      <CardTable minWidth={760}>
        <Table striped aria-label={t('admin.models.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('logs.model')}</Table.Th>
              <Table.Th>{t('admin.models.ownedBy')}</Table.Th>
              <Table.Th>{t('admin.models.input')}</Table.Th>
              <Table.Th>{t('admin.models.output')}</Table.Th>
              <Table.Th>{t('admin.models.perRequest')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(models.data ?? []).map((model) => (
              <Table.Tr key={model.id}>
                <Table.Td fw={500}>
                  {model.id} {model.free ? <Badge size="xs">{t('pricing.free')}</Badge> : null}{' '}
                  {Array.isArray(model.tiers) && model.tiers.length > 0 ? <Badge size="xs" variant="light">{t('admin.models.tiers', { count: model.tiers.length })}</Badge> : null}
                </Table.Td>
                <Table.Td data-user-content>{model.owned_by}</Table.Td>
                <Table.Td>{price(model.input_per_mtok)}</Table.Td>
                <Table.Td>{price(model.output_per_mtok)}</Table.Td>
                <Table.Td>{price(model.per_request)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(model)}>
                      {t('keys.edit')}
                    </Button>
                    <Button size="xs" variant="subtle" color="red" aria-label={t('admin.deleteNamed', { name: model.id })} onClick={() => askDelete(model)}>
                      {t('keys.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
      <Modal size="xl" opened={editing !== null} onClose={() => setEditing(null)} title={editing && editing !== 'new' ? t('admin.models.pricesOf', { id: editing.id }) : t('admin.models.add')}>
        {editing !== null ? <ModelForm existing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onDone={refresh} /> : null}
      </Modal>
    </Stack>
  );
}
