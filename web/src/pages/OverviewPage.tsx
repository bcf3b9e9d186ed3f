// The first page after sign-in: balance, total usage, requests today, RPM and TPM now, and a chart of
// requests and cost over the last day.
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fetchStats } from '../api/stats-api.ts';
import { fetchWallet } from '../api/wallet-api.ts';
import { StatCard } from '../components/StatCard.tsx';
import { SeriesChart } from '../components/UsageChart.tsx';
import { formatCount, formatUsd } from '../components/format.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { EmptyState } from '../components/EmptyState.tsx';
import { useMe } from '../api/session.ts';
import { adminApi } from '../api/admin-api.ts';

export default function OverviewPage() {
  const { t } = useTranslation();
  const wallet = useQuery({ queryKey: ['wallet', 'summary'], queryFn: () => fetchWallet(null) });
  const today = useQuery({
    queryKey: ['stats', 'today'],
    queryFn: () => {
      const now = Date.now();
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      return fetchStats({ from: midnight.getTime(), to: now, bucket: 'hour' });
    },
    refetchInterval: 15_000,
  });
  const day = useQuery({
    queryKey: ['stats', 'day'],
    queryFn: async () => {
      const to = Date.now();
      const from = to - 86_400_000;
      return { ...(await fetchStats({ from, to, bucket: 'hour' })), from, to };
    },
  });
  if (wallet.isError) return <ErrorNotice error={wallet.error} />;
  return (
    <Stack>
      <Title order={1}>{t('overview.title')}</Title>
      <EmptyGatewayNotice />
      <SimpleGrid cols={{ base: 2, md: 5 }}>
        <StatCard label={t('overview.balance')} value={formatUsd(wallet.data?.balanceUsd)} />
        <StatCard label={t('overview.totalUsage')} value={formatUsd(wallet.data?.totalUsageUsd)} />
        <StatCard label={t('overview.requestsToday')} value={formatCount(today.data?.totals.requests)} />
        <StatCard label={t('overview.rpm')} value={formatCount(today.data?.rpm)} hint={t('overview.rpmHint')} />
        <StatCard label={t('overview.tpm')} value={formatCount(today.data?.tpm)} hint={t('overview.tpmHint')} />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            {t('overview.chartTitle')}
          </Title>
          <Anchor component={Link} to="/usage" size="sm">
            {t('overview.moreUsage')}
          </Anchor>
        </Group>
        {day.data && day.data.series.length > 0 ? (
          <SeriesChart series={day.data.series} bucket="hour" from={day.data.from} to={day.data.to} metrics={['requests', 'costUsd']} />
        ) : (
          <Text c="dimmed">
            <Trans i18nKey="overview.noCalls" components={{ keys: <Anchor component={Link} to="/keys" />, playground: <Anchor component={Link} to="/playground" /> }} />
          </Text>
        )}
      </Paper>
    </Stack>
  );
}

/** An administrator of a gateway without any channel is told the first thing to do. */
function EmptyGatewayNotice() {
  const { t } = useTranslation();
  const isAdmin = useMe().data?.role === 'admin';
  const channels = useQuery({ queryKey: ['admin', 'channels'], queryFn: adminApi.channels, enabled: isAdmin });
  if (!isAdmin || !channels.data || channels.data.length > 0) return null;
  return (
    <EmptyState icon={IconPlugConnected} title={t('empty.noChannelsTitle')} testId="empty-gateway" action={<Button component={Link} to="/admin/channels">{t('empty.addChannel')}</Button>}>
      <Text maw={560}>{t('empty.noChannelsBody')}</Text>
    </EmptyState>
  );
}
