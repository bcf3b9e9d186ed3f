// Every payment, and redemption codes (AdminRedemptionCodes.tsx).
import { Badge, Paper, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime, formatUsd } from '../../components/format.ts';
import { AdminRedemptionCodes } from './AdminRedemptionCodes.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

export default function AdminPayments() {
  const payments = useQuery({ queryKey: ['admin', 'payments'], queryFn: adminApi.payments });
  const { t } = useTranslation();
  return (
    <Stack>
      <AdminRedemptionCodes />
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          {t('admin.payments.title')}
        </Title>
        {payments.isError ? <ErrorNotice error={payments.error} /> : null}
        <CardTable minWidth={600}>
          <Table striped aria-label={t('admin.payments.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wallet.date')}</Table.Th>
                <Table.Th>{t('admin.payments.user')}</Table.Th>
                <Table.Th>{t('wallet.amount')}</Table.Th>
                <Table.Th>{t('wallet.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(payments.data ?? []).map((payment) => (
                <Table.Tr key={payment.id}>
                  <Table.Td>{formatDateTime(payment.created_at)}</Table.Td>
                  <Table.Td data-user-content>{payment.user_email ?? payment.user_name}</Table.Td>
                  <Table.Td>{formatUsd(payment.amount_usd)}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled">{t(`wallet.paymentStatus.${payment.status}`, { defaultValue: payment.status })}</Badge>
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
