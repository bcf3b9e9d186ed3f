// Charts of requests, cost, tokens, RPM and TPM over a chosen range, by model and by key.
import { useState } from 'react';
import { Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { fetchStats, rangeFor, type Breakdown as BreakdownRow } from '../api/stats-api.ts';
import { keysApi } from '../api/keys-api.ts';
import { StatCard } from '../components/StatCard.tsx';
import { BreakdownChart, SeriesChart, type Metric } from '../components/UsageChart.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { formatCount, formatUsd } from '../components/format.ts';
import { CardTable } from '../components/CardTable.tsx';

type RangeChoice = '1h' | '24h' | '7d' | '30d';

export default function UsagePage() {
  const [range, setRange] = useState<RangeChoice>('24h');
  const [keyId, setKeyId] = useState<string | null>(null);
  const [metric, setMetric] = useState<Metric>('requests');
  const keys = useQuery({ queryKey: ['keys'], queryFn: keysApi.list });
  const stats = useQuery({
    queryKey: ['stats', range, keyId],
    // The range travels with its answer, so the chart's time axis is the range that was asked for.
    queryFn: async () => {
      const asked = rangeFor(range);
      return { ...(await fetchStats({ ...asked, key: keyId })), from: asked.from, to: asked.to };
    },
    refetchInterval: 30_000,
  });
  const bucket = rangeFor(range).bucket;
  return (
    <Stack>
      <Title order={1}>Usage</Title>
      <Group wrap="wrap">
        <SegmentedControl
          aria-label="Range"
          value={range}
          onChange={(value) => setRange(value as RangeChoice)}
          data={[
            { value: '1h', label: 'Last hour' },
            { value: '24h', label: '24 hours' },
            { value: '7d', label: '7 days' },
            { value: '30d', label: '30 days' },
          ]}
        />
        <Select
          aria-label="Key"
          placeholder="All keys"
          clearable
          value={keyId}
          onChange={setKeyId}
          data={(keys.data ?? []).map((key) => ({ value: key.id, label: key.name }))}
          w={220}
        />
      </Group>
      {stats.isError ? <ErrorNotice error={stats.error} /> : null}
      {stats.data ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            <StatCard label="Requests" value={formatCount(stats.data.totals.requests)} />
            <StatCard label="Errors" value={formatCount(stats.data.totals.errors)} />
            <StatCard label="Cost" value={formatUsd(stats.data.totals.costUsd)} />
            <StatCard label="Tokens in / out" value={`${formatCount(stats.data.totals.inputTokens)} / ${formatCount(stats.data.totals.outputTokens)}`} />
            <StatCard label="RPM" value={formatCount(stats.data.rpm)} hint="requests in the last minute" />
            <StatCard label="TPM" value={formatCount(stats.data.tpm)} hint="tokens in the last minute" />
          </SimpleGrid>
          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h4">
                Over time
              </Title>
              <SegmentedControl
                aria-label="Metric"
                size="xs"
                value={metric}
                onChange={(value) => setMetric(value as Metric)}
                data={[
                  { value: 'requests', label: 'Requests' },
                  { value: 'costUsd', label: 'Cost' },
                  { value: 'tokens', label: 'Tokens' },
                  { value: 'errors', label: 'Errors' },
                ]}
              />
            </Group>
            {stats.data.series.length === 0 ? <Text c="dimmed">No calls in this range.</Text> : <SeriesChart series={stats.data.series} bucket={bucket} from={stats.data.from} to={stats.data.to} metrics={[metric]} />}
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Breakdown title="By model" rows={stats.data.byModel} metric={metric} />
            <Breakdown title="By key" rows={stats.data.byKey} metric={metric} />
          </SimpleGrid>
        </>
      ) : null}
    </Stack>
  );
}

function Breakdown({ title, rows: typed, metric }: { title: string; rows: BreakdownRow[]; metric: Metric }) {
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {typed.length === 0 ? (
        <Text c="dimmed">Nothing to show.</Text>
      ) : (
        <>
          <BreakdownChart rows={typed} metric={metric} />
          <CardTable minWidth={360}>
            <Table mt="sm" aria-label={title}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Requests</Table.Th>
                  <Table.Th>Tokens</Table.Th>
                  <Table.Th>Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {typed.map((row) => (
                  <Table.Tr key={row.label}>
                    <Table.Td>{row.label}</Table.Td>
                    <Table.Td>{formatCount(row.requests)}</Table.Td>
                    <Table.Td>{formatCount(row.inputTokens + row.outputTokens)}</Table.Td>
                    <Table.Td>{formatUsd(row.costUsd)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </CardTable>
        </>
      )}
    </Paper>
  );
}
