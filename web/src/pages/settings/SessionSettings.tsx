import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { formatDateTime } from '../../components/format.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';

type Sessions = ApiAnswer<'/api/me/sessions', 'get'>;

export function SessionSettings() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => api.get<Sessions>('/api/me/sessions') });
  const revoke = useMutation({
    mutationFn: (id: string) => api.delete<ApiAnswer<'/api/me/sessions/{id}', 'delete'>>(`/api/me/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('settings.sessionSignedOut') });
      return queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  return (
    <Stack component="section" aria-labelledby="sessions-heading">
      <Title order={3} size="h4" id="sessions-heading">
        {t('settings.sessions')}
      </Title>
      {sessions.isError ? <Text c="red">{errorText(sessions.error)}</Text> : null}
      <CardTable minWidth={520}>
        <Table striped aria-label={t('settings.yourSessions')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.device')}</Table.Th>
              <Table.Th>{t('settings.address')}</Table.Th>
              <Table.Th>{t('settings.lastActive')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('settings.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(sessions.data?.data ?? []).map((session) => (
              <Table.Tr key={session.id}>
                <Table.Td>
                  <Text size="sm" lineClamp={1} maw={260} data-user-content={session.user_agent ? '' : undefined}>
                    {session.user_agent ?? t('settings.unknownDevice')}
                  </Text>
                  {session.current ? <Badge size="sm">{t('settings.thisSession')}</Badge> : null}
                </Table.Td>
                <Table.Td>{session.ip ?? '—'}</Table.Td>
                <Table.Td>{formatDateTime(session.last_seen_at)}</Table.Td>
                <Table.Td>
                  {session.current ? null : (
                    <Button size="xs" variant="light" color="red" loading={revoke.isPending && revoke.variables === session.id} onClick={() => revoke.mutate(session.id)}>
                      {t('nav.signOut')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
    </Stack>
  );
}
