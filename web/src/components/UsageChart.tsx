// A time-series chart of the statistics (recharts through @mantine/charts). Only the pages that show
// charts import this, so the charts library stays out of the sign-in bundle.
import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import type { Breakdown, Bucket, StatPoint } from '../api/stats-api.ts';

export type Metric = 'requests' | 'costUsd' | 'tokens' | 'errors';

const LABELS: Record<Metric, string> = { requests: 'Requests', costUsd: 'Cost (USD)', tokens: 'Tokens', errors: 'Errors' };

function timeLabel(start: number, bucket: Bucket): string {
  const date = new Date(start);
  return bucket === 'day' ? date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function SeriesChart({ series, bucket, metrics, height = 260 }: { series: StatPoint[]; bucket: Bucket; metrics: Metric[]; height?: number }) {
  const data = series.map((point) => ({
    time: timeLabel(point.start, bucket),
    requests: point.requests,
    errors: point.errors,
    costUsd: Math.round(point.costUsd * 1_000_000) / 1_000_000,
    tokens: point.inputTokens + point.outputTokens,
  }));
  const colors = ['indigo.6', 'teal.6', 'orange.6', 'red.6'];
  return (
    <AreaChart
      h={height}
      data={data}
      dataKey="time"
      withLegend
      curveType="monotone"
      series={metrics.map((metric, index) => ({ name: metric, label: LABELS[metric], color: colors[index % colors.length]! }))}
      aria-label={`Chart of ${metrics.map((metric) => LABELS[metric]).join(' and ')}`}
    />
  );
}

export function BreakdownChart({ rows, metric, height = 240 }: { rows: Breakdown[]; metric: Metric; height?: number }) {
  const data = rows.map((row) => ({ label: row.label, value: metric === 'tokens' ? row.inputTokens + row.outputTokens : row[metric] }));
  return <BarChart h={height} data={data} dataKey="label" series={[{ name: 'value', label: LABELS[metric], color: 'indigo.6' }]} aria-label={`${LABELS[metric]} by ${rows.length} items`} />;
}
