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
import { useTranslation } from 'react-i18next';

type RangeChoice = '1h' | '24h' | '7d' | '30d';

export default function UsagePage() {
  const [range, setRange] = useState<RangeChoice>('24h');
  const [keyId, setKeyId] = useState<string | null>(null);
  const [metric, setMetric] = useState<Metric>('requests');
  const { t } = useTranslation();
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
      <Title order={1}>{t('usage.title')}</Title>
      <Group wrap="wrap">
        <SegmentedControl
          aria-label={t('usage.range')}
          value={range}
          onChange={(value) => setRange(value as RangeChoice)}
          data={[
            { value: '1h', label: t('usage.lastHour') },
            { value: '24h', label: t('usage.hours24') },
            { value: '7d', label: t('usage.days7') },
            { value: '30d', label: t('usage.days30') },
          ]}
        />
        <Select
          aria-label={t('usage.key')}
          placeholder={t('usage.allKeys')}
          clearable
          value={keyId}
          onChange={setKeyId}
          data={(keys.data ?? []).map((key) => ({ value: String(key.id), label: key.name }))}
          w={220}
        />
      </Group>
      {stats.isError ? <ErrorNotice error={stats.error} /> : null}
      {stats.data ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            <StatCard label={t('usage.requests')} value={formatCount(stats.data.totals.requests)} />
            <StatCard label={t('usage.errors')} value={formatCount(stats.data.totals.errors)} />
            <StatCard label={t('usage.cost')} value={formatUsd(stats.data.totals.costUsd)} />
            <StatCard label={t('usage.tokensInOut')} value={`${formatCount(stats.data.totals.inputTokens)} / ${formatCount(stats.data.totals.outputTokens)}`} />
            <StatCard label={t('overview.rpm')} value={formatCount(stats.data.rpm)} hint={t('overview.rpmHint')} />
            <StatCard label={t('overview.tpm')} value={formatCount(stats.data.tpm)} hint={t('overview.tpmHint')} />
          </SimpleGrid>
          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h4">
                {t('usage.overTime')}
              </Title>
              <SegmentedControl
                aria-label={t('usage.metric')}
                size="xs"
                value={metric}
                onChange={(value) => setMetric(value as Metric)}
                data={[
                  { value: 'requests', label: t('usage.requests') },
                  { value: 'costUsd', label: t('usage.cost') },
                  { value: 'tokens', label: t('usage.tokens') },
                  { value: 'errors', label: t('usage.errors') },
                ]}
              />
            </Group>
            {stats.data.series.length === 0 ? <Text c="dimmed">{t('usage.noCalls')}</Text> : <SeriesChart series={stats.data.series} bucket={bucket} from={stats.data.from} to={stats.data.to} metrics={[metric]} />}
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Breakdown title={t('usage.byModel')} rows={stats.data.byModel} metric={metric} />
            <Breakdown title={t('usage.byKey')} rows={stats.data.byKey} metric={metric} />
          </SimpleGrid>
        </>
      ) : null}
    </Stack>
  );
}

function Breakdown({ title, rows: typed, metric }: { title: string; rows: BreakdownRow[]; metric: Metric }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {typed.length === 0 ? (
        <Text c="dimmed">{t('usage.nothing')}</Text>
      ) : (
        <>
          <BreakdownChart rows={typed} metric={metric} />
          <CardTable minWidth={360}>
            <Table mt="sm" aria-label={title}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('usage.name')}</Table.Th>
                  <Table.Th>{t('usage.requests')}</Table.Th>
                  <Table.Th>{t('usage.tokens')}</Table.Th>
                  <Table.Th>{t('usage.cost')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {typed.map((row) => (
                  <Table.Tr key={row.label}>
                    <Table.Td data-user-content>{row.label}</Table.Td>
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
