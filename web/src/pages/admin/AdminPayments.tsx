// Every payment, and redemption codes: create N codes worth an amount (shown once) and see who used them.
import { useState } from 'react';
import { Badge, Button, Code, Group, NumberInput, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime, formatUsd } from '../../components/format.ts';
import { runAdminAction } from './admin-actions.ts';

export default function AdminPayments() {
  const queryClient = useQueryClient();
  const payments = useQuery({ queryKey: ['admin', 'payments'], queryFn: adminApi.payments });
  const codes = useQuery({ queryKey: ['admin', 'codes'], queryFn: adminApi.redemptionCodes });
  const [count, setCount] = useState<number | string>(1);
  const [amount, setAmount] = useState<number | string>(10);
  const [note, setNote] = useState('');
  const [created, setCreated] = useState<string[] | null>(null);
  return (
    <Stack>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Redemption codes
        </Title>
        <Group align="flex-end" wrap="wrap">
          <NumberInput label="How many" min={1} max={1000} allowDecimal={false} value={count} onChange={setCount} w={120} />
          <NumberInput label="Worth (USD each)" min={0.01} decimalScale={2} value={amount} onChange={setAmount} w={160} />
          <TextInput label="Note" value={note} onChange={(event) => setNote(event.currentTarget.value)} w={200} />
          <Button
            onClick={() =>
              void runAdminAction(
                async () => setCreated((await adminApi.createRedemptionCodes(Number(count), Number(amount), note)).codes),
                'Codes created: copy them now, they are shown only once.',
                () => queryClient.invalidateQueries({ queryKey: ['admin', 'codes'] }),
              )
            }
          >
            Create codes
          </Button>
        </Group>
        {created ? (
          <Code block mt="sm" aria-label="New redemption codes">
            {created.join('\n')}
          </Code>
        ) : null}
        <Table.ScrollContainer minWidth={560} mt="sm">
          <Table striped aria-label="Redemption codes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Worth</Table.Th>
                <Table.Th>Note</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Redeemed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(codes.data ?? []).map((code) => (
                <Table.Tr key={String(code.id)}>
                  <Table.Td>{String(code.prefix)}…</Table.Td>
                  <Table.Td>{formatUsd(Number(code.amount_usd))}</Table.Td>
                  <Table.Td>{String(code.note ?? '—')}</Table.Td>
                  <Table.Td>{formatDateTime(code.created_at as string)}</Table.Td>
                  <Table.Td>{code.redeemed_at ? `${formatDateTime(code.redeemed_at as string)} by user ${String(code.redeemed_by)}` : 'Not yet'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Card payments
        </Title>
        {payments.isError ? <ErrorNotice error={payments.error} /> : null}
        <Table.ScrollContainer minWidth={600}>
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
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
