// The rows the platform and per-key roll-ups of usage_stats (migrations 0009, 0011) add for a batch's
// usage_stats rows. Pure (no database library), so the SQLite metering worker, which writes with node:sqlite
// statements, and the Kysely repositories write exactly the same rows.
import type { UsageStatsKeysTable, UsageStatsPlatformTable, UsageStatsTable } from '../db/schema.ts';
import { SIX_HOURS_MS, WEEK_MS } from './stat-ranges.ts';

export const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;

type Counters = Pick<UsageStatsTable, (typeof COUNTERS)[number]>;

/** Sums `rows` by the columns that identify a roll-up row, in a fixed order (same lock order everywhere). */
function rollUp<Row extends Counters>(rows: readonly UsageStatsTable[], keyOf: (row: UsageStatsTable) => string, pick: (row: UsageStatsTable) => Row): Row[] {
  const merged = new Map<string, Row>();
  for (const row of rows) {
    const id = keyOf(row);
    const existing = merged.get(id);
    if (!existing) {
      merged.set(id, pick(row));
      continue;
    }
    for (const counter of COUNTERS) existing[counter] += row[counter];
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

const counters = (row: UsageStatsTable): Counters => ({
  requests: row.requests, errors: row.errors, input_tokens: row.input_tokens, output_tokens: row.output_tokens, cost_micros: row.cost_micros,
});

/** The platform rows (one per bucket, start and model) that `statRows` add up to. */
export function platformRows(statRows: readonly UsageStatsTable[]): UsageStatsPlatformTable[] {
  return rollUp(statRows, (row) => `${row.bucket}\u0000${row.bucket_start}\u0000${row.model}`,
    (row) => ({ bucket: row.bucket, bucket_start: row.bucket_start, model: row.model, ...counters(row) }));
}

/**
 * The per-key rows (one per bucket, start, user and key) that `statRows` add up to, with a six-hour bucket
 * for each hour bucket's counts and a week bucket for each day bucket's (migration 0011: a by-key breakdown
 * over days or weeks reads several times fewer rows).
 */
export function keyRows(statRows: readonly UsageStatsTable[]): UsageStatsKeysTable[] {
  const coarser = statRows.flatMap((row) => {
    if (row.bucket === 'hour') return [{ ...row, bucket: 'six_hours', bucket_start: row.bucket_start - (row.bucket_start % SIX_HOURS_MS) }];
    if (row.bucket === 'day') return [{ ...row, bucket: 'week', bucket_start: row.bucket_start - (row.bucket_start % WEEK_MS) }];
    return [];
  });
  return rollUp([...statRows, ...coarser], (row) => `${row.bucket}\u0000${row.bucket_start}\u0000${row.user_id}\u0000${row.key_id}`,
    (row) => ({ bucket: row.bucket, bucket_start: row.bucket_start, user_id: row.user_id, key_id: row.key_id, ...counters(row) }));
}

