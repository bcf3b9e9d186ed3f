// Every user's calls, newest first, with the channel that served each.
import { Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { readLog } from '../../api/logs-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatCount, formatDateTime, formatUsd } from '../../components/format.ts';

export default function AdminLogs() {
  const logs = useQuery({ queryKey: ['admin', 'logs'], queryFn: adminApi.logs, refetchInterval: 15_000 });
  if (logs.isError) return <ErrorNotice error={logs.error} />;
  const rows = (logs.data ?? []).map((raw) => ({ ...readLog(raw), channel: String(raw.channel ?? '—'), userId: String(raw.user_id ?? '') }));
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped aria-label="All calls">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>User</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Model</Table.Th>
            <Table.Th>Channel</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Tokens in / out</Table.Th>
            <Table.Th>Cost</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
              <Table.Td>{row.userId}</Table.Td>
              <Table.Td>{row.keyName}</Table.Td>
              <Table.Td>{row.model}</Table.Td>
              <Table.Td>{row.channel}</Table.Td>
              <Table.Td>
                <Badge color={row.outcome === 'success' ? 'green' : 'red.9'} variant="filled">
                  {row.outcome === 'success' ? 'OK' : `Failed ${row.status ?? ''}`}
                </Badge>
                {row.error ? (
                  <Text size="xs" c="dimmed" lineClamp={1} maw={220}>
                    {row.error}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                {formatCount(row.inputTokens)} / {formatCount(row.outputTokens)}
              </Table.Td>
              <Table.Td>{formatUsd(row.costUsd)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
