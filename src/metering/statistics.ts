// Statistics from the usage_stats aggregates (minute, hour and day buckets), never from the raw log:
// requests, errors, tokens and cost over time, by model, and the current RPM and TPM. A user's or a key's
// read their own usage_stats rows (indexed by user and by key); the platform's read usage_stats_platform,
// one row per bucket and model, instead of every user's, key's and model's rows in the range.
import type { Db } from '../db/repositories/repository-helpers.ts';
import { sumMinuteRates, sumStatSeries, sumStatsByModel, type StatScope, type StatSums } from '../db/repositories/usage-stats-sums.ts';
import { STAT_BUCKETS } from './metering-writer.ts';
import { coveringSpans } from './stat-ranges.ts';

export type StatBucket = keyof typeof STAT_BUCKETS;
export type { StatScope } from '../db/repositories/usage-stats-sums.ts';

interface StatPoint {
  start: number;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
}

interface StatsReport {
  bucket: StatBucket;
  from: number;
  to: number;
  totals: Omit<StatPoint, 'start'>;
  series: StatPoint[];
  byModel: (Omit<StatPoint, 'start'> & { model: string })[];
  /** Requests and tokens per minute over the last 60 seconds (sliding estimate from minute buckets). */
  rpm: number;
  tpm: number;
}

export async function readStats(db: Db, scope: StatScope, bucket: StatBucket, from: number, to: number, now = Date.now()): Promise<StatsReport> {
  // Independent reads: on PostgreSQL each runs on its own pooled connection, at the same time.
  const [seriesRows, modelRows, rates] = await Promise.all([
    sumStatSeries(db, scope, bucket, from - (from % STAT_BUCKETS[bucket]), to),
    // The by-model sums cover the whole range: the coarsest buckets that cover it exactly (a day's hour
    // buckets, not its 1,440 minute buckets; stat-ranges.ts) read a fraction of the series' rows.
    sumStatsByModel(db, scope, coveringSpans(bucket, from, to)),
    readRates(db, scope, now),
  ]);
  const series = seriesRows.map((row) => ({ start: Number(row.bucket_start), ...point(row) }));
  const totals = series.reduce((sum, p) => ({
    requests: sum.requests + p.requests, errors: sum.errors + p.errors, inputTokens: sum.inputTokens + p.inputTokens,
    outputTokens: sum.outputTokens + p.outputTokens, costMicros: sum.costMicros + p.costMicros,
  }), { requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costMicros: 0 });
  const { rpm, tpm } = rates;
  return { bucket, from, to, totals, series, byModel: modelRows.map((row) => ({ model: row.model, ...point(row) })), rpm, tpm };
}

async function readRates(db: Db, scope: StatScope, now: number): Promise<{ rpm: number; tpm: number }> {
  const minute = STAT_BUCKETS.minute;
  const current = now - (now % minute);
  const rows = await sumMinuteRates(db, scope, current - minute);
  // The previous minute counts for the part of it still inside the last 60 seconds.
  const previousWeight = 1 - (now - current) / minute;
  let rpm = 0;
  let tpm = 0;
  for (const row of rows) {
    const weight = Number(row.bucket_start) === current ? 1 : previousWeight;
    rpm += Number(row.requests) * weight;
    tpm += (Number(row.input_tokens) + Number(row.output_tokens)) * weight;
  }
  return { rpm: Math.round(rpm), tpm: Math.round(tpm) };
}

function point(row: StatSums): Omit<StatPoint, 'start'> {
  return {
    requests: Number(row.requests ?? 0),
    errors: Number(row.errors ?? 0),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  };
}
