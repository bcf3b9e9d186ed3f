// Writes a batch of finished calls in one transaction: their usage-log rows, their wallet charges (ledger
// rows plus the users' cached balances), the keys' spend, and the statistics aggregates (usage_stats and
// its platform and per-key roll-ups). One transaction means a call's log and its charge land together or
// not at all. Callers pass entries made safe for both engines (safe-metering-entry.ts) and set aside rows
// the database refuses (isolate-refused-rows.ts).
import { randomUUID } from 'node:crypto';
import { inTransaction, type Db } from '../db/repositories/repository-helpers.ts';
import { insertUsageLogBatch } from '../db/repositories/usage-logs.ts';
import { upsertUsageStatsBatch } from '../db/repositories/usage-stats.ts';
import { writeBatchCharges } from '../db/repositories/wallet-ledger.ts';
import { addToStatRollups } from '../db/repositories/usage-stats-rollups.ts';
import { callsByUser, chargedEntries, statRows, sumBy } from './metering-rows.ts';
import type { MeteringEntry } from './metering-entry.ts';

export type { MeteringEntry } from './metering-entry.ts';

export { STAT_BUCKETS } from './metering-rows.ts';

export async function writeMeteringBatch(db: Db, entries: MeteringEntry[]): Promise<void> {
  await inTransaction(db, async (trx) => {
    await insertUsageLogBatch(trx, entries.map((entry) => entry.log));
    await writeCharges(trx, entries);
    const stats = statRows(entries);
    await upsertUsageStatsBatch(trx, stats);
    await addToStatRollups(trx, stats);
  });
}

/**
 * One ledger row per user per batch: the sum of that batch's calls, referencing the batch. Each call's own
 * cost is in its usage-log row (cost_micros, request_id), so the ledger stays exact while writing one row
 * per flush instead of one per call.
 */
export async function writeCharges(trx: Db, entries: MeteringEntry[]): Promise<void> {
  const charged = chargedEntries(entries);
  if (charged.length === 0) return;
  await writeBatchCharges(trx, {
    batch: randomUUID(),
    now: Date.now(),
    byUser: sumBy(charged, (entry) => entry.log.user_id!),
    callsByUser: callsByUser(charged),
    byKey: sumBy(charged.filter((entry) => entry.log.key_id !== null), (entry) => entry.log.key_id!),
  });
}
