// Pre-aggregated usage counters per (bucket, bucket_start, user, key, model), for dashboards that must not
// scan the usage log. Writers add to the counters; they never read-modify-write.
import type { Selectable } from 'kysely';
import type { UsageStatsTable } from '../schema.ts';
import { chunks, inTransaction, type Db } from './repository-helpers.ts';

export type UsageStatsRow = Selectable<UsageStatsTable>;

const KEY_COLUMNS = ['bucket', 'bucket_start', 'user_id', 'key_id', 'model'] as const;
const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;
const ROWS_PER_STATEMENT = 500;

/**
 * Adds each row's counters to the stored ones (inserting rows that do not exist yet), in one transaction.
 * Rows with the same key are merged first: PostgreSQL refuses an INSERT … ON CONFLICT DO UPDATE that
 * touches the same row twice.
 */
export async function upsertUsageStatsBatch(db: Db, rows: readonly UsageStatsRow[]): Promise<number> {
  const merged = new Map<string, UsageStatsRow>();
  for (const row of rows) {
    const id = KEY_COLUMNS.map((column) => row[column]).join('\u0000');
    const existing = merged.get(id);
    if (!existing) {
      merged.set(id, { ...row });
      continue;
    }
    for (const counter of COUNTERS) existing[counter] += row[counter];
  }
  // A fixed order keeps concurrent writers' row locks in the same order on PostgreSQL (no deadlocks).
  const ordered = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  if (ordered.length === 0) return 0;
  await inTransaction(db, async (trx) => {
    for (const slice of chunks(ordered, ROWS_PER_STATEMENT)) {
      await trx.insertInto('usage_stats').values(slice)
        .onConflict((conflict) => conflict.columns([...KEY_COLUMNS]).doUpdateSet((eb) => ({
          requests: eb('usage_stats.requests', '+', eb.ref('excluded.requests')),
          errors: eb('usage_stats.errors', '+', eb.ref('excluded.errors')),
          input_tokens: eb('usage_stats.input_tokens', '+', eb.ref('excluded.input_tokens')),
          output_tokens: eb('usage_stats.output_tokens', '+', eb.ref('excluded.output_tokens')),
          cost_micros: eb('usage_stats.cost_micros', '+', eb.ref('excluded.cost_micros')),
        })))
        .execute();
    }
  });
  return ordered.length;
}

interface UsageStatsFilter {
  bucket: 'minute' | 'hour' | 'day';
  /** Inclusive lower bound on bucket_start. */
  since?: number;
  /** Exclusive upper bound on bucket_start. */
  until?: number;
  userId?: number;
  keyId?: number;
  model?: string;
}

export async function listUsageStats(db: Db, filter: UsageStatsFilter): Promise<UsageStatsRow[]> {
  let query = db.selectFrom('usage_stats').selectAll().where('bucket', '=', filter.bucket);
  if (filter.since !== undefined) query = query.where('bucket_start', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('bucket_start', '<', filter.until);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  return query.orderBy('bucket_start').orderBy('user_id').orderBy('key_id').orderBy('model').execute();
}

/** Retention for fine-grained buckets; returns the number of rows deleted. */
export async function deleteUsageStatsOlderThan(db: Db, bucket: UsageStatsFilter['bucket'], cutoff: number): Promise<number> {
  const result = await db.deleteFrom('usage_stats').where('bucket', '=', bucket).where('bucket_start', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
