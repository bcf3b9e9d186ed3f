// Writes a batch of finished calls in one transaction: their usage-log rows, their wallet charges (ledger
// rows plus the users' cached balances), the keys' spend, and the statistics aggregates. One transaction
// means a call's log and its charge land together or not at all.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseEngine } from '../db/database.ts';
import type { DatabaseSchema, NewUsageLog } from '../db/schema.ts';
import { insertUsageLogs } from './usage-log-writer.ts';

export interface MeteringEntry {
  log: NewUsageLog;
  /** The micro-USD to take from the owner's wallet; 0 for failed or free calls. */
  chargeMicros: number;
}

export const STAT_BUCKETS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

export async function writeMeteringBatch(db: Kysely<DatabaseSchema>, engine: DatabaseEngine, entries: MeteringEntry[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertUsageLogs(trx, engine, entries.map((entry) => entry.log));
    await writeCharges(trx, entries);
    await upsertStats(trx, entries);
  });
}

/**
 * One ledger row per user per batch: the sum of that batch's calls, referencing the batch. Each call's own
 * cost is in its usage-log row (cost_micros, request_id), so the ledger stays exact while writing one row
 * per flush instead of one per call.
 */
async function writeCharges(trx: Transaction<DatabaseSchema>, entries: MeteringEntry[]): Promise<void> {
  const charged = entries.filter((entry) => entry.chargeMicros > 0 && entry.log.user_id !== null);
  if (charged.length === 0) return;
  const byUser = sumBy(charged, (entry) => entry.log.user_id!);
  const batch = randomUUID();
  const now = Date.now();
  await trx.insertInto('wallet_ledger').values([...byUser].map(([userId, total]) => ({
    user_id: userId,
    created_at: now,
    kind: 'charge' as const,
    amount_micros: -total,
    reference: `usage-batch:${batch}:${userId}`,
    note: `${charged.filter((entry) => entry.log.user_id === userId).length} calls`,
  }))).execute();
  for (const [userId, total] of byUser) {
    await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '-', total) })).where('id', '=', userId).execute();
  }
  const byKey = sumBy(charged.filter((entry) => entry.log.key_id !== null), (entry) => entry.log.key_id!);
  for (const [keyId, total] of byKey) {
    await trx.updateTable('api_keys').set((eb) => ({ used_micros: eb('used_micros', '+', total), last_used_at: now })).where('id', '=', keyId).execute();
  }
}

function sumBy(entries: MeteringEntry[], id: (entry: MeteringEntry) => number): Map<number, number> {
  const totals = new Map<number, number>();
  for (const entry of entries) totals.set(id(entry), (totals.get(id(entry)) ?? 0) + entry.chargeMicros);
  return totals;
}

interface StatRow { bucket: string; bucket_start: number; user_id: number; key_id: number; model: string; requests: number; errors: number; input_tokens: number; output_tokens: number; cost_micros: number }

async function upsertStats(trx: Transaction<DatabaseSchema>, entries: MeteringEntry[]): Promise<void> {
  const rows = new Map<string, StatRow>();
  for (const { log, chargeMicros } of entries) {
    for (const [bucket, size] of Object.entries(STAT_BUCKETS)) {
      const start = log.created_at - (log.created_at % size);
      const id = `${bucket}|${start}|${log.user_id ?? 0}|${log.key_id ?? 0}|${log.model}`;
      let row = rows.get(id);
      if (!row) {
        row = { bucket, bucket_start: start, user_id: log.user_id ?? 0, key_id: log.key_id ?? 0, model: log.model, requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 };
        rows.set(id, row);
      }
      row.requests++;
      if (log.status === undefined || log.status >= 400) row.errors++;
      row.input_tokens += log.input_tokens ?? 0;
      row.output_tokens += log.output_tokens ?? 0;
      row.cost_micros += chargeMicros;
    }
  }
  const columns = ['bucket', 'bucket_start', 'user_id', 'key_id', 'model', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;
  const all = [...rows.values()];
  // ON CONFLICT … DO UPDATE adds to the existing counters; the same statement works on SQLite and PostgreSQL.
  for (let start = 0; start < all.length; start += 2000) {
    const slice = all.slice(start, start + 2000);
    await trx.insertInto('usage_stats').values(slice).onConflict((conflict) => conflict
      .columns(['bucket', 'bucket_start', 'user_id', 'key_id', 'model'])
      .doUpdateSet((eb) => Object.fromEntries(columns.slice(5).map((column) => [column, eb(eb.ref(`usage_stats.${column}`), '+', eb.ref(`excluded.${column}`))])))).execute();
  }
}
