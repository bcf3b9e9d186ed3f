// The audit log: who changed what, with the values before and after, and when.
import { Code, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime } from '../../components/format.ts';
import { CardTable } from '../../components/CardTable.tsx';

const short = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value).slice(0, 300));

export default function AdminAudit() {
  const audit = useQuery({ queryKey: ['admin', 'audit'], queryFn: adminApi.audit });
  if (audit.isError) return <ErrorNotice error={audit.error} />;
  return (
    <CardTable minWidth={900}>
      <Table striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Before</Table.Th>
            <Table.Th>After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(audit.data ?? []).map((entry, index) => (
            <Table.Tr key={String(entry.id ?? index)}>
              <Table.Td>{formatDateTime((entry.at ?? entry.created_at) as string)}</Table.Td>
              <Table.Td>{String(entry.actor ?? entry.actor_email ?? '—')}</Table.Td>
              <Table.Td>{String(entry.action ?? '')}</Table.Td>
              <Table.Td>{String(entry.target ?? '')}</Table.Td>
              <Table.Td>
                <Code>{short(entry.before)}</Code>
              </Table.Td>
              <Table.Td>
                <Code>{short(entry.after)}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </CardTable>
  );
}
