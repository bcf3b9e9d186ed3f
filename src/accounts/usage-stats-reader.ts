// Statistics for the dashboard, from the aggregates (never the raw log): totals and series
// (src/metering/statistics.ts) plus a breakdown by key. The breakdown sums the whole range, so it reads
// the coarsest buckets that cover it (stat-ranges.ts); the platform's from usage_stats_keys (no row per model).
// It lists the keys that cost most (100 unless asked) and sums the others in by_key_rest: a platform has
// about a thousand keys, and sorting, naming and sending all of them was most of a platform report's time.
import type { Db } from '../db/repositories/repository-helpers.ts';
import { readStats, type StatBucket, type StatScope } from '../metering/statistics.ts';
import { sumTopKeys } from '../db/repositories/usage-stats-sums.ts';
import { coveringSpans, KEY_ROLLUP_LEVELS, STAT_LEVELS } from '../metering/stat-ranges.ts';

/** How many keys a by-key breakdown lists unless the caller asks for another number. */
export const DEFAULT_KEYS_LISTED = 100;
export const MAX_KEYS_LISTED = 1000;

export async function readStatsReport(db: Db, scope: StatScope, bucket: StatBucket, from: number, to: number, keysListed = DEFAULT_KEYS_LISTED) {
  // Independent reads: on PostgreSQL they run on separate pooled connections at the same time.
  const [report, keyRows] = await Promise.all([readStats(db, scope, bucket, from, to), readByKey(db, scope, bucket, from, to, keysListed)]);
  const usd = (micros: number) => micros / 1_000_000;
  const windowMinutes = Math.max(1, (to - from) / 60_000);
  return {
    bucket,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    rpm: report.rpm,
    tpm: report.tpm,
    totals: {
      ...report.totals,
      costUsd: usd(report.totals.costMicros),
      // Averages over the range, beside the "now" rates above.
      avgRpm: report.totals.requests / windowMinutes,
      avgTpm: (report.totals.inputTokens + report.totals.outputTokens) / windowMinutes,
    },
    series: report.series.map((point) => ({ ...point, costUsd: usd(point.costMicros) })),
    by_model: report.byModel.map((row) => ({ ...row, costUsd: usd(row.costMicros) })),
    by_key: keyRows.map((row) => ({ key_id: Number(row.key_id), key_name: row.key_name ?? null, ...counters(row, '') })),
    by_key_rest: restOf(keyRows),
  };
}

type Sums = Record<'requests' | 'errors' | 'input_tokens' | 'output_tokens' | 'cost_micros', unknown>;

/** A row's counters; `prefix` 'all_' reads the window sums over every key instead. */
function counters(row: Sums & Record<`all_${keyof Sums}`, unknown>, prefix: '' | 'all_') {
  const read = (name: keyof Sums) => Number(row[`${prefix}${name}`] ?? 0);
  const costMicros = read('cost_micros');
  return { requests: read('requests'), errors: read('errors'), inputTokens: read('input_tokens'), outputTokens: read('output_tokens'), costMicros, costUsd: costMicros / 1_000_000 };
}

/** The keys past the listed ones, summed (every key minus the listed), or null when every key is listed. */
function restOf(rows: (Sums & Record<`all_${keyof Sums}` | 'all_keys', unknown>)[]) {
  const all = rows[0];
  const keys = Number(all?.all_keys ?? 0) - rows.length;
  if (all === undefined || keys <= 0) return null;
  const total = counters(all, 'all_');
  const listed = rows.map((row) => counters(row, ''));
  const minus = (name: 'requests' | 'errors' | 'inputTokens' | 'outputTokens' | 'costMicros') => total[name] - listed.reduce((sum, row) => sum + row[name], 0);
  const costMicros = minus('costMicros');
  return { keys, requests: minus('requests'), errors: minus('errors'), inputTokens: minus('inputTokens'), outputTokens: minus('outputTokens'), costMicros, costUsd: costMicros / 1_000_000 };
}

/** The largest keys by cost (then requests, then id) and the sum of all the others, in one round trip. */
async function readByKey(db: Db, scope: StatScope, bucket: StatBucket, from: number, to: number, limit: number) {
  // Only the platform's per-key roll-up has six-hour and week buckets; usage_stats (a user's, a key's) has not.
  const spans = coveringSpans(bucket, from, to, scope.kind === 'platform' ? KEY_ROLLUP_LEVELS : STAT_LEVELS);
  if (spans.length === 0) return [];
  return sumTopKeys(db, scope, spans, limit);
}

