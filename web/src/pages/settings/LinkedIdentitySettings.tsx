// Identities at identity providers linked to my account, each with Unlink. The server refuses to unlink the
// last way to sign in, and its message says what to do first.
import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { CardTable } from '../../components/CardTable.tsx';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { formatDateTime } from '../../components/format.ts';

type LinkedIdentities = ApiAnswer<'/api/me/identities', 'get'>;

export function LinkedIdentitySettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const identities = useQuery({ queryKey: ['identities'], queryFn: async () => (await api.get<LinkedIdentities>('/api/me/identities')).data });
  const unlink = useMutation({
    mutationFn: (id: number) => api.delete<ApiAnswer<'/api/me/identities/{id}', 'delete'>>(`/api/me/identities/${id}`),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('identities.unlinked') });
      return queryClient.invalidateQueries({ queryKey: ['identities'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  if ((identities.data ?? []).length === 0) return null;
  return (
    <Stack component="section" aria-labelledby="identities-heading">
      <Title order={3} size="h4" id="identities-heading">{t('identities.title')}</Title>
      <Text size="sm">{t('identities.intro')}</Text>
      <CardTable minWidth={480}>
        <Table striped aria-label={t('identities.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('identities.provider')}</Table.Th>
              <Table.Th>{t('identities.email')}</Table.Th>
              <Table.Th>{t('identities.lastUsed')}</Table.Th>
              <Table.Th><span className="visually-hidden">{t('identities.actions')}</span></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(identities.data ?? []).map((identity) => (
              <Table.Tr key={identity.id}>
                <Table.Td>{identity.provider}</Table.Td>
                <Table.Td>{identity.email ?? '—'}</Table.Td>
                <Table.Td>{formatDateTime(identity.last_used_at)}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="default" color="red" onClick={() => unlink.mutate(identity.id)} aria-label={t('identities.unlinkOf', { provider: identity.provider })}>
                    {t('identities.unlink')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
    </Stack>
  );
}
