// Every payment, and redemption codes (AdminRedemptionCodes.tsx).
import { Badge, Paper, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime, formatUsd } from '../../components/format.ts';
import { AdminRedemptionCodes } from './AdminRedemptionCodes.tsx';
import { CardTable } from '../../components/CardTable.tsx';

export default function AdminPayments() {
  const payments = useQuery({ queryKey: ['admin', 'payments'], queryFn: adminApi.payments });
  return (
    <Stack>
      <AdminRedemptionCodes />
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Card payments
        </Title>
        {payments.isError ? <ErrorNotice error={payments.error} /> : null}
        <CardTable minWidth={600}>
          <Table striped aria-label="Card payments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(payments.data ?? []).map((payment) => (
                <Table.Tr key={String(payment.id)}>
                  <Table.Td>{formatDateTime(payment.created_at as string)}</Table.Td>
                  <Table.Td>{String(payment.user_email ?? payment.user_name ?? payment.user_id)}</Table.Td>
                  <Table.Td>{formatUsd(Number(payment.amount_usd))}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled">{String(payment.status)}</Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </CardTable>
      </Paper>
    </Stack>
  );
}
