// Every organisation with its members and balance, and the channel group its keys use (the platform
// administrator's choice; the keys move to it at once).
import { Select, Table, Text } from '@mantine/core';
import { IconBuildingCommunity } from '@tabler/icons-react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { formatUsd } from '../../components/format.ts';
import { useTranslation } from 'react-i18next';

export default function AdminOrganisations() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const organisations = useQuery({ queryKey: ['admin-orgs'], queryFn: async () => (await api.get<ApiAnswer<'/api/admin/organisations', 'get'>>('/api/admin/organisations')).data });
  const groups = useQuery({ queryKey: ['admin-groups-names'], queryFn: async () => (await api.get<ApiAnswer<'/api/admin/groups', 'get'>>('/api/admin/groups')).data.map((group) => group.name) });
  const setGroup = useMutation({
    mutationFn: ({ id, group }: { id: number; group: string }) => api.patch<ApiAnswer<'/api/admin/organisations/{id}', 'patch'>>(`/api/admin/organisations/${id}`, { group }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('admin.organisations.groupSaved') });
      return queryClient.invalidateQueries({ queryKey: ['admin-orgs'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: error instanceof Error ? error.message : t('admin.organisations.failed') }),
  });
  // None yet: say where organisations come from (an empty table is invisible as cards on a phone).
  if (organisations.data?.length === 0) {
    return (
      <EmptyState icon={IconBuildingCommunity} title={t('admin.organisations.noneTitle')}>
        <Text c="dimmed">{t('admin.organisations.noneBody')}</Text>
      </EmptyState>
    );
  }
  return (
    <CardTable minWidth={560}>
      <Table striped aria-label={t('admin.organisations.table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.organisations.organisation')}</Table.Th>
            <Table.Th>{t('admin.organisations.members')}</Table.Th>
            <Table.Th>{t('admin.organisations.balance')}</Table.Th>
            <Table.Th>{t('admin.organisations.group')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(organisations.data ?? []).map((org) => (
            <Table.Tr key={org.id}>
              <Table.Td data-user-content>{org.name}</Table.Td>
              <Table.Td>{org.members}</Table.Td>
              <Table.Td>{formatUsd(org.balance_usd)}</Table.Td>
              <Table.Td>
                <Select aria-label={t('admin.organisations.groupOf', { name: org.name })} value={org.group} allowDeselect={false} w={180} data={groups.data ?? [org.group]}
                  onChange={(value) => value && value !== org.group && setGroup.mutate({ id: org.id, group: value })} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </CardTable>
  );
}
