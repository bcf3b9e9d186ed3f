// Balance, total usage, requests, the ledger, "Top up" (whole dollars from 1, through the payment
// processor's checkout page) and a redemption code field. Coming back from checkout (?payment=…) the page
// refreshes until the credit shows: the credit itself never depends on this page.
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { fetchPayment, fetchPayments, fetchTopUpOptions, fetchWallet, topUpProblem, walletApi, type Payment } from '../api/wallet-api.ts';
import { applyServerError } from '../api/form-errors.ts';
import { StatCard } from '../components/StatCard.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { formatCount, formatDateTime, formatUsd } from '../components/format.ts';
import { CardTable } from '../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n.ts';

export default function WalletPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const [params] = useSearchParams();
  const returning = params.get('payment');
  const topupId = params.get('topup');
  // Back from checkout: follow that payment until Stripe's confirmation has landed.
  const pending = useQuery({
    queryKey: ['payment', topupId],
    queryFn: () => fetchPayment(topupId!),
    enabled: returning === 'success' && topupId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' || !query.state.data ? 2_000 : false),
  });
  const settled = pending.data && pending.data.status !== 'pending';
  const wallet = useQuery({ queryKey: ['wallet', cursor, settled], queryFn: () => fetchWallet(cursor) });
  const payments = useQuery({ queryKey: ['payments', settled], queryFn: fetchPayments });
  const options = useQuery({ queryKey: ['topup-options'], queryFn: fetchTopUpOptions });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['wallet'] });

  if (wallet.isError) return <ErrorNotice error={wallet.error} />;
  const data = wallet.data;
  return (
    <Stack>
      <Title order={1}>{t('wallet.title')}</Title>
      {returning === 'success' ? <PaymentStatus payment={pending.data} /> : null}
      {returning === 'cancel' ? <Alert color="yellow">{t('wallet.cancelled')}</Alert> : null}
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <StatCard label={t('overview.balance')} value={formatUsd(data?.balanceUsd)} />
        <StatCard label={t('overview.totalUsage')} value={formatUsd(data?.totalUsageUsd)} />
        <StatCard label={t('wallet.requests')} value={formatCount(data?.requests)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <TopUp enabled={options.data?.enabled ?? false} maxUsd={options.data?.maxUsd ?? 10_000} />
        <Redeem onRedeemed={refresh} />
      </SimpleGrid>
      <Payments payments={payments.data ?? []} />
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          {t('wallet.ledger')}
        </Title>
        <CardTable minWidth={560}>
          <Table striped aria-label={t('wallet.ledger')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wallet.date')}</Table.Th>
                <Table.Th>{t('wallet.kind')}</Table.Th>
                <Table.Th>{t('wallet.amount')}</Table.Th>
                <Table.Th>{t('wallet.note')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data?.ledger ?? []).map((entry, index) => (
                <Table.Tr key={`${entry.kind}-${entry.reference ?? index}-${entry.createdAt}`}>
                  <Table.Td>{formatDateTime(entry.createdAt)}</Table.Td>
                  <Table.Td>{i18n.exists(`wallet.kinds.${entry.kind}`) ? t(`wallet.kinds.${entry.kind}`) : entry.kind}</Table.Td>
                  <Table.Td>{entry.amountUsd > 0 ? `+${formatUsd(entry.amountUsd)}` : formatUsd(entry.amountUsd)}</Table.Td>
                  <Table.Td>
                    <LedgerNote note={entry.note} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </CardTable>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            {t('logs.newer')}
          </Button>
          <Button variant="default" disabled={!data?.nextCursor} onClick={() => data?.nextCursor && setCursors([...cursors, data.nextCursor])}>
            {t('logs.older')}
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}

/**
 * A ledger line's note: the ones the gateway writes itself (an opening balance, a code, a card top-up or
 * refund, a day's calls) in the language in force; an administrator's own note (a grant's) as written.
 */
function LedgerNote({ note }: { note: string | null }) {
  const { t } = useTranslation();
  if (!note) return null;
  const topup = /^Card top-up ([\d.]+) USD$/.exec(note);
  const refund = /^Card payment refunded: ([\d.]+) USD$/.exec(note);
  const calls = /^(\d+) calls?$/.exec(note);
  if (note === 'opening balance from the config file') return <>{t('wallet.notes.opening')}</>;
  if (note === 'Redemption code') return <>{t('wallet.notes.redemption')}</>;
  if (topup) return <>{t('wallet.notes.topup', { amount: formatUsd(Number(topup[1])) })}</>;
  if (refund) return <>{t('wallet.notes.refunded', { amount: formatUsd(Number(refund[1])) })}</>;
  if (calls) return <>{t('wallet.calls', { count: Number(calls[1]) })}</>;
  return <span data-user-content>{note}</span>;
}

function PaymentStatus({ payment }: { payment: Payment | undefined }) {
  const { t } = useTranslation();
  if (!payment || payment.status === 'pending') {
    return (
      <Alert color="blue" role="status">
        {t('wallet.confirming')}
      </Alert>
    );
  }
  if (payment.status === 'failed') {
    return (
      <Alert color="red" role="status">
        {t('wallet.paymentFailed')}
      </Alert>
    );
  }
  return (
    <Alert color="green" role="status">
      {t('wallet.added', { amount: formatUsd(payment.amountUsd) })}
    </Alert>
  );
}

function Payments({ payments }: { payments: Payment[] }) {
  const { t } = useTranslation();
  if (payments.length === 0) return null;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {t('wallet.topups')}
      </Title>
      <CardTable minWidth={480}>
        <Table striped aria-label={t('wallet.topups')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('wallet.date')}</Table.Th>
              <Table.Th>{t('wallet.amount')}</Table.Th>
              <Table.Th>{t('wallet.status')}</Table.Th>
              <Table.Th>{t('wallet.receipt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payments.map((payment) => (
              <Table.Tr key={payment.id}>
                <Table.Td>{formatDateTime(payment.createdAt)}</Table.Td>
                <Table.Td>
                  {formatUsd(payment.amountUsd)}
                  {payment.refundedUsd > 0 ? t('wallet.refunded', { amount: formatUsd(payment.refundedUsd) }) : ''}
                </Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={payment.status === 'completed' ? 'green' : payment.status === 'failed' ? 'red.9' : 'gray'}>
                    {t(`wallet.paymentStatus.${payment.status}`, { defaultValue: payment.status })}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {payment.receiptUrl ? (
                    <Anchor href={payment.receiptUrl} target="_blank" rel="noreferrer">
                      {t('wallet.receipt')}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
    </Paper>
  );
}

function TopUp({ enabled, maxUsd }: { enabled: boolean; maxUsd: number }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const form = useForm<{ amount_usd: number | string }>({ initialValues: { amount_usd: 10 }, validate: { amount_usd: (value) => topUpProblem(value, maxUsd) } });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const { checkout_url } = await walletApi.topUp(Number(values.amount_usd));
      window.location.assign(checkout_url);
    } catch (error) {
      const message = applyServerError(error, form, ['amount_usd']);
      if (message) notifications.show({ color: 'red', message });
      setBusy(false);
    }
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="topup-heading">
      <Title order={2} size="h4" id="topup-heading" mb="sm">
        {t('wallet.topUp')}
      </Title>
      {enabled ? (
        <form onSubmit={submit} noValidate>
          <Group align="flex-start">
            <NumberInput label={t('wallet.amountUsd')} description={t('wallet.wholeDollars', { max: maxUsd.toLocaleString(i18n.language, { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 }) })} clampBehavior="none" prefix="$" w={220} {...form.getInputProps('amount_usd')} />
            <Button type="submit" loading={busy} mt={25}>
              {t('wallet.topUp')}
            </Button>
          </Group>
          <Text size="sm" c="dimmed" mt="xs">
            {t('wallet.payThere')}
          </Text>
        </form>
      ) : (
        <Text>{t('wallet.noCards')}</Text>
      )}
    </Paper>
  );
}

function Redeem({ onRedeemed }: { onRedeemed: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { code: '' }, validate: { code: (value) => (value.trim() ? null : i18n.t('wallet.enterCode')) } });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await walletApi.redeem(values.code.trim());
      form.reset();
      notifications.show({ color: 'green', message: t('wallet.redeemed') });
      onRedeemed();
    } catch (error) {
      const message = applyServerError(error, form, ['code']);
      if (message) notifications.show({ color: 'red', message });
    } finally {
      setBusy(false);
    }
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="redeem-heading">
      <Title order={2} size="h4" id="redeem-heading" mb="sm">
        {t('wallet.redeemTitle')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start">
          <TextInput label={t('wallet.code')} autoComplete="off" w={240} {...form.getInputProps('code')} />
          <Button type="submit" variant="light" loading={busy} mt={25}>
            {t('wallet.redeem')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
