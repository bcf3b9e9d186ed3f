// The platform and per-key roll-ups of usage_stats (migration 0009). Like usage_stats, writers add to the
// stored counters (insert … on conflict do update), never read-modify-write, so concurrent writers (several
// instances, the worker and the gateway's own connection) cannot lose each other's additions.
import { sql } from '../kysely-parts.ts';
import type { UsageStatsTable } from '../schema.ts';
import { chunks, type Db } from './repository-helpers.ts';
import { COUNTERS, keyRows, platformRows } from '../../metering/stat-rollup-rows.ts';


const ROWS_PER_STATEMENT = 500;

// `excluded` is the row that was refused by the conflict; both engines name it so.
// Built once per table, not per batch: the worker writes a batch every few milliseconds under load.
const addExcluded = (table: string) => Object.fromEntries(COUNTERS.map((counter) => [counter, sql<number>`${sql.ref(`${table}.${counter}`)} + ${sql.ref(`excluded.${counter}`)}`]));
const ADD_TO_PLATFORM = addExcluded('usage_stats_platform');
const ADD_TO_KEYS = addExcluded('usage_stats_keys');

/**
 * Adds the usage_stats rows of a batch to both roll-ups. Call it in the transaction that writes the
 * usage_stats rows themselves, so the three tables always agree.
 */
export async function addToStatRollups(db: Db, statRows: readonly UsageStatsTable[]): Promise<void> {
  for (const slice of chunks(platformRows(statRows), ROWS_PER_STATEMENT)) {
    await db.insertInto('usage_stats_platform').values(slice)
      .onConflict((conflict) => conflict.columns(['bucket', 'bucket_start', 'model']).doUpdateSet(ADD_TO_PLATFORM))
      .execute();
  }
  for (const slice of chunks(keyRows(statRows), ROWS_PER_STATEMENT)) {
    await db.insertInto('usage_stats_keys').values(slice)
      .onConflict((conflict) => conflict.columns(['bucket', 'bucket_start', 'user_id', 'key_id']).doUpdateSet(ADD_TO_KEYS))
      .execute();
  }
}
