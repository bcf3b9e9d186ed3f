// The platform at a glance, for administrators: traffic, cost and revenue over a chosen period, a chart,
// the users and models that cost most, and every channel's health (status, breaker, last hour's errors).
import { useState } from 'react';
import { Badge, Group, Paper, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminOpsApi, type OverviewChannel } from '../../api/admin-ops-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { StatCard } from '../../components/StatCard.tsx';
import { SeriesChart } from '../../components/UsageChart.tsx';
import { formatCount, formatDateTime, formatUsd } from '../../components/format.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';

/** The periods; each one's label is admin.overview.periods.<key>. */
const PERIODS: Record<string, { ms: number; bucket: 'hour' | 'day' }> = {
  '24h': { ms: 86_400_000, bucket: 'hour' },
  '7d': { ms: 7 * 86_400_000, bucket: 'hour' },
  '30d': { ms: 30 * 86_400_000, bucket: 'day' },
  '90d': { ms: 90 * 86_400_000, bucket: 'day' },
};

export default function AdminOverview() {
  const [period, setPeriod] = useState('24h');
  const { t } = useTranslation();
  const chosen = PERIODS[period] ?? PERIODS['24h']!;
  const overview = useQuery({
    queryKey: ['admin', 'overview', period],
    queryFn: async () => {
      const to = Date.now();
      const from = to - chosen.ms;
      return { ...(await adminOpsApi.overview(from, to, chosen.bucket)), fromMs: from, toMs: to };
    },
    refetchInterval: 60_000,
  });
  const data = overview.data;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>{t('admin.overview.title')}</Title>
        <Select
          label={t('admin.overview.period')}
          value={period}
          allowDeselect={false}
          onChange={(value) => setPeriod(value ?? '24h')}
          data={Object.keys(PERIODS).map((value) => ({ value, label: t(`admin.overview.periods.${value}`) }))}
          w={180}
        />
      </Group>
      {overview.isError ? <ErrorNotice error={overview.error} /> : null}
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        <StatCard label={t('usage.requests')} value={formatCount(data?.traffic.requests)} hint={data ? t('admin.overview.perMinute', { count: formatCount(data.traffic.rpm) }) : undefined} />
        <StatCard
          label={t('admin.overview.failedCalls')}
          value={formatCount(data?.traffic.errors)}
          hint={data && data.traffic.requests > 0 ? t('admin.overview.ofRequests', { share: (data.traffic.errors / data.traffic.requests).toLocaleString(currentLanguage(), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }) }) : undefined}
        />
        <StatCard
          label={t('usage.tokens')}
          value={formatCount(data ? data.traffic.input_tokens + data.traffic.output_tokens : undefined)}
          hint={data ? t('admin.overview.inOut', { input: formatCount(data.traffic.input_tokens), output: formatCount(data.traffic.output_tokens) }) : undefined}
        />
        <StatCard label={t('admin.overview.charged')} value={formatUsd(data?.cost_usd)} hint={t('admin.overview.chargedHint')} />
        <StatCard label={t('admin.overview.revenue')} value={formatUsd(data?.revenue.total_usd)} hint={t('admin.overview.revenueHint')} />
        <StatCard
          label={t('admin.overview.topupsCodes')}
          value={data ? `${formatCount(data.revenue.topups.count)} / ${formatCount(data.revenue.redemptions.count)}` : '—'}
          hint={
            data
              ? t(data.revenue.topups.refunded_usd > 0 ? 'admin.overview.revenueSplitRefunded' : 'admin.overview.revenueSplit', {
                  cards: formatUsd(data.revenue.topups.amount_usd),
                  refunded: formatUsd(data.revenue.topups.refunded_usd),
                  codes: formatUsd(data.revenue.redemptions.amount_usd),
                })
              : undefined
          }
        />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          {t(`admin.overview.chartTitles.${period}`)}
        </Title>
        {data ? (
          <SeriesChart
            series={data.series.map((point) => ({ start: Date.parse(point.start), requests: point.requests, errors: point.errors, inputTokens: 0, outputTokens: 0, costUsd: point.cost_usd }))}
            bucket={chosen.bucket}
            from={data.fromMs}
            to={data.toMs}
            metrics={['requests', 'errors', 'costUsd']}
          />
        ) : (
          <Text c="dimmed">{t('common.loading')}</Text>
        )}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            {t('admin.overview.topUsers')}
          </Title>
          <Table.ScrollContainer minWidth={360}>
            <Table aria-label={t('admin.overview.topUsersTable')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.payments.user')}</Table.Th>
                  <Table.Th>{t('usage.requests')}</Table.Th>
                  <Table.Th>{t('usage.cost')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(data?.top_users ?? []).map((user) => (
                  <Table.Tr key={user.user_id}>
                    <Table.Td>
                      <Text size="sm" fw={500} data-user-content={user.name === null ? undefined : ''}>
                        {user.name ?? t('admin.deletedUser', { id: user.user_id })}
                      </Text>
                      {user.email ? (
                        <Text size="xs" c="dimmed">
                          {user.email}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{formatCount(user.requests)}</Table.Td>
                    <Table.Td>{formatUsd(user.cost_usd)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {data && data.top_users.length === 0 ? <Text c="dimmed">{t('admin.overview.noCalls')}</Text> : null}
        </Paper>
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            {t('admin.overview.topModels')}
          </Title>
          <Table.ScrollContainer minWidth={360}>
            <Table aria-label={t('admin.overview.topModelsTable')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('logs.model')}</Table.Th>
                  <Table.Th>{t('usage.requests')}</Table.Th>
                  <Table.Th>{t('usage.cost')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(data?.top_models ?? []).map((model) => (
                  <Table.Tr key={model.model}>
                    <Table.Td>{model.model}</Table.Td>
                    <Table.Td>{formatCount(model.requests)}</Table.Td>
                    <Table.Td>{formatUsd(model.cost_usd)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {data && data.top_models.length === 0 ? <Text c="dimmed">{t('admin.overview.noCalls')}</Text> : null}
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          {t('admin.overview.health')}
        </Title>
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label={t('admin.overview.health')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.overview.channel')}</Table.Th>
                <Table.Th>{t('wallet.status')}</Table.Th>
                <Table.Th>{t('admin.overview.breaker')}</Table.Th>
                <Table.Th>{t('admin.overview.failedAttempts')}</Table.Th>
                <Table.Th>{t('admin.overview.lastError')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data?.channels ?? []).map((channel) => (
                <ChannelHealthRow key={channel.id} channel={channel} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data && data.channels.length === 0 ? <Text c="dimmed">{t('admin.overview.noChannels')}</Text> : null}
      </Paper>
    </Stack>
  );
}

/** Each breaker state's color; its label is admin.overview.breakers.<state>. */
const BREAKER_COLOR: Record<OverviewChannel['breaker'], string> = { 'closed': 'green', 'half-open': 'orange.8', 'open': 'red.9' };

function ChannelHealthRow({ channel }: { channel: OverviewChannel }) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td fw={500} data-user-content>
        {channel.name}
      </Table.Td>
      <Table.Td>
        <Badge variant="filled" color={channel.status === 'enabled' ? 'green' : 'red.9'} miw="max-content">
          {t(`admin.channelStatus.${channel.status}`)}
        </Badge>
        {channel.status_reason ? (
          <Text size="xs" c="dimmed" maw={260} lang="en">
            {channel.status_reason}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={BREAKER_COLOR[channel.breaker]} miw="max-content">
          {t(`admin.overview.breakers.${channel.breaker}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        {formatCount(channel.failed_attempts_last_hour)}
        {/* Past 500 failed calls in the hour the count is exact over a shorter window, named here. */}
        {channel.failed_attempts_counted_partly ? (
          <Text size="xs" c="dimmed">
            {t('admin.overview.countedSince', { time: formatDateTime(channel.failed_attempts_since) })}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        {channel.last_error ? (
          <Text size="xs" maw={320} style={{ wordBreak: 'break-word' }}>
            {formatDateTime(channel.last_error.at)}: {channel.last_error.status === null ? t('admin.noAnswer') : `HTTP ${channel.last_error.status}`}
            {channel.last_error.code ? ` ${channel.last_error.code}` : ''}
            {channel.last_error.message ? (
              <>
                : <span lang="en">{channel.last_error.message}</span>
              </>
            ) : null}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            {t('admin.overview.none')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
