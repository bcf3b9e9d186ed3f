// The deletions retention makes (src/metering/retention.ts decides what is old): usage-log rows, statistics
// buckets of any of the three aggregate tables, and kept responses with their items.
import type { Db } from './repository-helpers.ts';

type StatTable = 'usage_stats' | 'usage_stats_platform' | 'usage_stats_keys';

/** One statement (the hourly job runs it); returns the rows deleted. */
export async function deleteUsageLogsBefore(db: Db, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('usage_logs').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteStatBucketsBefore(db: Db, table: StatTable, bucket: string, cutoff: number): Promise<number> {
  const result = await db.deleteFrom(table).where('bucket', '=', bucket).where('bucket_start', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Responses past their expiry, or kept by the gateway and created before `keptCutoff` (none when null),
 * and their items. Returns the responses deleted.
 */
export async function deleteOldResponses(db: Db, now: number, keptCutoff: number | null): Promise<number> {
  const old = db.selectFrom('responses').select('id').where((eb) => eb.or([
    eb('expires_at', '<', now),
    ...(keptCutoff === null ? [] : [eb.and([eb('state_kept_by', '=', 'gateway'), eb('created_at', '<', keptCutoff)])]),
  ]));
  await db.deleteFrom('response_items').where((eb) => eb.or([eb('expires_at', '<', now), eb('response_id', 'in', old)])).execute();
  const result = await db.deleteFrom('responses').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}
