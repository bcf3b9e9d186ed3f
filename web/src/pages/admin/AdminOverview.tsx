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

const PERIODS: Record<string, { label: string; ms: number; bucket: 'hour' | 'day' }> = {
  '24h': { label: 'Last 24 hours', ms: 86_400_000, bucket: 'hour' },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000, bucket: 'hour' },
  '30d': { label: 'Last 30 days', ms: 30 * 86_400_000, bucket: 'day' },
  '90d': { label: 'Last 90 days', ms: 90 * 86_400_000, bucket: 'day' },
};

export default function AdminOverview() {
  const [period, setPeriod] = useState('24h');
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
        <Title order={2}>Platform overview</Title>
        <Select
          label="Period"
          value={period}
          allowDeselect={false}
          onChange={(value) => setPeriod(value ?? '24h')}
          data={Object.entries(PERIODS).map(([value, item]) => ({ value, label: item.label }))}
          w={180}
        />
      </Group>
      {overview.isError ? <ErrorNotice error={overview.error} /> : null}
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        <StatCard label="Requests" value={formatCount(data?.traffic.requests)} hint={data ? `${formatCount(data.traffic.rpm)} per minute now` : undefined} />
        <StatCard label="Failed calls" value={formatCount(data?.traffic.errors)} hint={data && data.traffic.requests > 0 ? `${((data.traffic.errors / data.traffic.requests) * 100).toFixed(1)} % of requests` : undefined} />
        <StatCard label="Tokens" value={formatCount(data ? data.traffic.input_tokens + data.traffic.output_tokens : undefined)} hint={data ? `${formatCount(data.traffic.input_tokens)} in, ${formatCount(data.traffic.output_tokens)} out` : undefined} />
        <StatCard label="Charged to users" value={formatUsd(data?.cost_usd)} hint="what the calls cost their owners" />
        <StatCard label="Revenue" value={formatUsd(data?.revenue.total_usd)} hint="card top-ups and redeemed codes" />
        <StatCard
          label="Top-ups / codes redeemed"
          value={data ? `${formatCount(data.revenue.topups.count)} / ${formatCount(data.revenue.redemptions.count)}` : '—'}
          hint={data ? `${formatUsd(data.revenue.topups.amount_usd)} by card${data.revenue.topups.refunded_usd > 0 ? ` (after ${formatUsd(data.revenue.topups.refunded_usd)} refunded)` : ''}, ${formatUsd(data.revenue.redemptions.amount_usd)} in codes` : undefined}
        />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          Requests and cost, {chosen.label.toLowerCase()}
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
          <Text c="dimmed">Loading…</Text>
        )}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            Top users by cost
          </Title>
          <Table.ScrollContainer minWidth={360}>
            <Table aria-label="Top users">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>User</Table.Th>
                  <Table.Th>Requests</Table.Th>
                  <Table.Th>Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(data?.top_users ?? []).map((user) => (
                  <Table.Tr key={user.user_id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {user.name ?? `user ${user.user_id} (deleted)`}
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
          {data && data.top_users.length === 0 ? <Text c="dimmed">No calls in this period.</Text> : null}
        </Paper>
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            Top models by cost
          </Title>
          <Table.ScrollContainer minWidth={360}>
            <Table aria-label="Top models">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Model</Table.Th>
                  <Table.Th>Requests</Table.Th>
                  <Table.Th>Cost</Table.Th>
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
          {data && data.top_models.length === 0 ? <Text c="dimmed">No calls in this period.</Text> : null}
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          Channel health
        </Title>
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label="Channel health">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Channel</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Circuit breaker</Table.Th>
                <Table.Th>Failed attempts, last hour</Table.Th>
                <Table.Th>Last error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data?.channels ?? []).map((channel) => (
                <ChannelHealthRow key={channel.id} channel={channel} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data && data.channels.length === 0 ? <Text c="dimmed">No channels yet: add one under Channels.</Text> : null}
      </Paper>
    </Stack>
  );
}

const STATUS_LABEL: Record<OverviewChannel['status'], string> = { enabled: 'Enabled', disabled: 'Disabled', auto_disabled: 'Disabled automatically' };
const BREAKER_LABEL: Record<OverviewChannel['breaker'], { label: string; color: string }> = {
  'closed': { label: 'Closed (healthy)', color: 'green' },
  'half-open': { label: 'Half-open (probing)', color: 'orange.8' },
  'open': { label: 'Open (skipped)', color: 'red.9' },
};

function ChannelHealthRow({ channel }: { channel: OverviewChannel }) {
  const breaker = BREAKER_LABEL[channel.breaker];
  return (
    <Table.Tr>
      <Table.Td fw={500}>{channel.name}</Table.Td>
      <Table.Td>
        <Badge variant="filled" color={channel.status === 'enabled' ? 'green' : 'red.9'} miw="max-content">
          {STATUS_LABEL[channel.status]}
        </Badge>
        {channel.status_reason ? (
          <Text size="xs" c="dimmed" maw={260}>
            {channel.status_reason}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={breaker.color} miw="max-content">
          {breaker.label}
        </Badge>
      </Table.Td>
      <Table.Td>
        {formatCount(channel.failed_attempts_last_hour)}
        {channel.failed_attempts_counted_partly ? ' or more' : ''}
      </Table.Td>
      <Table.Td>
        {channel.last_error ? (
          <Text size="xs" maw={320} style={{ wordBreak: 'break-word' }}>
            {formatDateTime(channel.last_error.at)}: {channel.last_error.status === null ? 'no answer' : `HTTP ${channel.last_error.status}`}
            {channel.last_error.code ? ` ${channel.last_error.code}` : ''}
            {channel.last_error.message ? `: ${channel.last_error.message}` : ''}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            none
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
