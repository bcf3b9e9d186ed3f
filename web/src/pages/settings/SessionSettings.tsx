import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { formatDateTime } from '../../components/format.ts';
import { CardTable } from '../../components/CardTable.tsx';

interface SessionRow {
  id: string;
  current: boolean;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
}

export function SessionSettings() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => api.get<{ data: SessionRow[] }>('/api/me/sessions') });
  const revoke = useMutation({
    mutationFn: (id: string) => api.delete(`/api/me/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'The session is signed out.' });
      return queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Stack component="section" aria-labelledby="sessions-heading">
      <Title order={3} size="h4" id="sessions-heading">
        Sessions
      </Title>
      {sessions.isError ? <Text c="red">{sessions.error.message}</Text> : null}
      <CardTable minWidth={520}>
        <Table striped aria-label="Your sessions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Last active</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(sessions.data?.data ?? []).map((session) => (
              <Table.Tr key={session.id}>
                <Table.Td>
                  <Text size="sm" lineClamp={1} maw={260}>
                    {session.user_agent ?? 'Unknown device'}
                  </Text>
                  {session.current ? <Badge size="sm">This session</Badge> : null}
                </Table.Td>
                <Table.Td>{session.ip ?? '—'}</Table.Td>
                <Table.Td>{formatDateTime(session.last_seen_at)}</Table.Td>
                <Table.Td>
                  {session.current ? null : (
                    <Button size="xs" variant="light" color="red" loading={revoke.isPending && revoke.variables === session.id} onClick={() => revoke.mutate(session.id)}>
                      Sign out
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
