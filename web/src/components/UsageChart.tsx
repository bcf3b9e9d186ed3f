// Time-series and breakdown charts of the statistics (recharts through @mantine/charts). Only the pages
// that show charts import this, so the charts library stays out of the sign-in bundle.
// The time axis is real: every bucket of the range is a point (zero when idle, stats-series.ts) placed
// at its time; money has its own axis, on the right, when drawn with counts, and is shown exactly.
import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import type { Breakdown, Bucket, StatPoint } from '../api/stats-api.ts';
import { BUCKET_MS, zeroFilledSeries } from '../api/stats-series.ts';
import { formatCount, formatUsd } from './format.ts';
import { currentLanguage, i18n } from '../i18n/i18n.ts';

export type Metric = 'requests' | 'costUsd' | 'tokens' | 'errors';

// Read at render time, so the labels follow the language in force.
const LABELS = new Proxy({} as Record<Metric, string>, { get: (_target, metric: string) => i18n.t(`chart.${metric}`) });
const isMoney = (metric: Metric) => metric === 'costUsd';

/** A tick's label: the time of day within a day, the day and hour when the range spans a day (else 8 PM would appear twice), the day for days. */
function timeTick(start: number, bucket: Bucket, spanMs: number): string {
  const date = new Date(start);
  if (bucket === 'day') return date.toLocaleDateString(currentLanguage(), { month: 'short', day: 'numeric' });
  if (bucket === 'hour' && spanMs >= 86_400_000) return date.toLocaleString(currentLanguage(), { month: 'short', day: 'numeric', hour: '2-digit' });
  return date.toLocaleTimeString(currentLanguage(), { hour: '2-digit', minute: '2-digit' });
}

export function SeriesChart({ series, bucket, from, to, metrics, height = 260 }: { series: StatPoint[]; bucket: Bucket; from: number; to: number; metrics: Metric[]; height?: number }) {
  const points = zeroFilledSeries(series, from, to, bucket);
  const data = points.map((point) => ({
    start: point.start,
    requests: point.requests,
    errors: point.errors,
    costUsd: point.costUsd,
    tokens: point.inputTokens + point.outputTokens,
  }));
  const first = points[0]?.start ?? from;
  const last = points.at(-1)?.start ?? to;
  // Money beside counts goes on a right axis of its own; alone, it takes the left axis in dollars.
  const split = metrics.some(isMoney) && metrics.some((metric) => !isMoney(metric));
  const leftIsMoney = metrics.every(isMoney);
  const colors = ['indigo.6', 'teal.7', 'orange.7', 'red.7'];
  return (
    <AreaChart
      h={height}
      data={data}
      dataKey="start"
      withLegend
      curveType="linear"
      withDots={false}
      xAxisProps={{ type: 'number', scale: 'time', domain: [first, last + BUCKET_MS[bucket] - 1], tickFormatter: (value: number) => timeTick(value, bucket, to - from), minTickGap: 24 }}
      yAxisProps={{ tickFormatter: (value: number) => (leftIsMoney ? formatUsd(value) : formatCount(value)), allowDecimals: leftIsMoney, width: leftIsMoney ? 72 : 48 }}
      withRightYAxis={split}
      rightYAxisProps={{ tickFormatter: (value: number) => formatUsd(value), width: 72 }}
      yAxisLabel={split ? metrics.filter((metric) => !isMoney(metric)).map((metric) => LABELS[metric]).join(', ') : undefined}
      rightYAxisLabel={split ? LABELS.costUsd : undefined}
      tooltipProps={{ content: ({ label, payload }) => <SeriesTooltip label={label} payload={payload as unknown as TooltipEntry[] | undefined} /> }}
      series={metrics.map((metric, index) => ({ name: metric, label: LABELS[metric], color: colors[index % colors.length]!, ...(split && isMoney(metric) ? { yAxisId: 'right' } : {}) }))}
      aria-label={i18n.t('chart.overTime', { metrics: metrics.map((metric) => LABELS[metric]).join(i18n.t('chart.and')) })}
      data-points={data.length}
    />
  );
}

interface TooltipEntry {
  name: string;
  value: number;
  color?: string;
}

/** The hovered bucket: its time, then each series in its own unit (a count, or exact dollars). */
function SeriesTooltip({ label, payload }: { label: unknown; payload: TooltipEntry[] | undefined }) {
  if (!payload || payload.length === 0) return null;
  return (
    <Paper withBorder shadow="sm" p="xs" data-testid="series-tooltip">
      <Text size="sm" fw={600}>
        {new Date(Number(label)).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' })}
      </Text>
      {payload.map((entry) => {
        const metric = entry.name as Metric;
        return (
          <Text size="sm" key={metric}>
            {LABELS[metric] ?? metric}: {isMoney(metric) ? formatUsd(entry.value) : formatCount(entry.value)}
          </Text>
        );
      })}
    </Paper>
  );
}

export function BreakdownChart({ rows, metric, height = 240 }: { rows: Breakdown[]; metric: Metric; height?: number }) {
  const data = rows.map((row) => ({ label: row.label, value: metric === 'tokens' ? row.inputTokens + row.outputTokens : row[metric] }));
  return (
    <BarChart
      h={height}
      data={data}
      dataKey="label"
      valueFormatter={(value) => (isMoney(metric) ? formatUsd(value) : formatCount(value))}
      series={[{ name: 'value', label: LABELS[metric], color: 'indigo.6' }]}
      aria-label={i18n.t('chart.byItems', { metric: LABELS[metric], count: rows.length })}
    />
  );
}
