// The rows a metering batch adds up to, computed without any database code: the statistics rows of each
// call and the per-user / per-key sums of the charges. Shared by the Kysely writer (metering-writer.ts) and
// the SQLite metering worker's statements (sqlite-metering-store.ts), which must not load Kysely.
import type { UsageStatsTable } from '../db/schema.ts';
import type { MeteringEntry } from './metering-writer.ts';

export const STAT_BUCKETS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;

/** The entries that take money from a wallet. */
export function chargedEntries(entries: readonly MeteringEntry[]): MeteringEntry[] {
  return entries.filter((entry) => entry.chargeMicros > 0 && entry.log.user_id !== null);
}

export function sumBy(entries: readonly MeteringEntry[], id: (entry: MeteringEntry) => number): Map<number, number> {
  const totals = new Map<number, number>();
  for (const entry of entries) totals.set(id(entry), (totals.get(id(entry)) ?? 0) + entry.chargeMicros);
  return totals;
}

/** Each call counted once in its minute, hour and day bucket; the repository adds them to stored counters. */
export function statRows(entries: readonly MeteringEntry[]): UsageStatsTable[] {
  const rows: UsageStatsTable[] = [];
  for (const { log, chargeMicros } of entries) {
    for (const [bucket, size] of Object.entries(STAT_BUCKETS)) {
      rows.push({
        bucket,
        bucket_start: log.created_at - (log.created_at % size),
        user_id: log.user_id ?? 0,
        key_id: log.key_id ?? 0,
        model: log.model,
        requests: 1,
        errors: log.status === undefined || log.status >= 400 ? 1 : 0,
        input_tokens: log.input_tokens ?? 0,
        output_tokens: log.output_tokens ?? 0,
        cost_micros: chargeMicros,
      });
    }
  }
  return rows;
}

/**
 * `rows` summed by the columns in `keys` (the counters added), each result holding only `keys` and the
 * counters. The same sums the Kysely repositories compute before their upserts.
 */
export function sumCounters(rows: readonly UsageStatsTable[], keys: readonly (keyof UsageStatsTable)[]): Record<string, string | number>[] {
  const merged = new Map<string, Record<string, string | number>>();
  for (const row of rows) {
    const id = keys.map((key) => row[key]).join('\u0000');
    const existing = merged.get(id);
    if (!existing) {
      const fresh: Record<string, string | number> = {};
      for (const key of keys) fresh[key] = row[key];
      for (const counter of COUNTERS) fresh[counter] = row[counter];
      merged.set(id, fresh);
      continue;
    }
    for (const counter of COUNTERS) (existing[counter] as number) += row[counter];
  }
  return [...merged.values()];
}
