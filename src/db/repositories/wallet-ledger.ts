// The wallet ledger: every balance movement is a row, and users.balance_micros is kept equal to the sum of
// a user's rows by updating both in one transaction. A non-null reference is unique per kind, so a retried
// charge or a replayed payment webhook is skipped rather than applied twice.
import { sql } from '../kysely-parts.ts';
import type { WalletLedgerRow, WalletLedgerTable } from '../schema.ts';
import { chunks, inTransaction, type Db } from './repository-helpers.ts';

export interface LedgerEntry {
  user_id: number;
  kind: WalletLedgerTable['kind'];
  /** Signed: negative for charges, positive for top-ups, grants and refunds. */
  amount_micros: number;
  /** Request id, payment id…; null for movements that need no idempotency. */
  reference: string | null;
  note?: string | null;
  created_at?: number;
}

interface LedgerAppendResult {
  /** Rows written, in (kind, reference) order. */
  applied: WalletLedgerRow[];
  /** Entries not applied because their (kind, reference) was already in the ledger or earlier in the batch. */
  skipped: LedgerEntry[];
  /** Balance change per user id from the applied rows. */
  deltas: Map<number, number>;
}

const ROWS_PER_STATEMENT = 500;

export async function appendLedgerBatch(db: Db, entries: readonly LedgerEntry[], now = Date.now()): Promise<LedgerAppendResult> {
  const skipped: LedgerEntry[] = [];
  const seen = new Set<string>();
  const unique: LedgerEntry[] = [];
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amount_micros)) throw new Error(`Ledger amount must be an integer number of micro-USD, got ${entry.amount_micros}`);
    const id = entry.reference === null ? null : `${entry.kind}\u0000${entry.reference}`;
    if (id !== null && seen.has(id)) {
      skipped.push(entry);
      continue;
    }
    if (id !== null) seen.add(id);
    unique.push(entry);
  }
  // One global order for the unique-index entries and the user rows: concurrent batches on PostgreSQL then
  // take their locks in the same order and cannot deadlock each other.
  unique.sort((a, b) => compare(a.kind, b.kind) || compare(a.reference ?? '', b.reference ?? '') || a.user_id - b.user_id);
  if (unique.length === 0) return { applied: [], skipped, deltas: new Map() };

  return inTransaction(db, async (trx) => {
    const applied: WalletLedgerRow[] = [];
    for (const slice of chunks(unique, ROWS_PER_STATEMENT)) {
      const rows = await trx.insertInto('wallet_ledger')
        .values(slice.map((entry) => ({
          user_id: entry.user_id,
          created_at: entry.created_at ?? now,
          kind: entry.kind,
          amount_micros: entry.amount_micros,
          reference: entry.reference,
          note: entry.note ?? null,
        })))
        // The target names the partial unique index (its WHERE included), which both engines require to
        // match it; rows that hit it are dropped and RETURNING lists only the rows actually written.
        .onConflict((conflict) => conflict.columns(['kind', 'reference']).where('reference', 'is not', null).doNothing())
        .returningAll()
        .execute();
      applied.push(...rows);
    }
    const written = new Set(applied.map((row) => `${row.kind}\u0000${row.reference}`));
    for (const entry of unique) {
      if (entry.reference !== null && !written.has(`${entry.kind}\u0000${entry.reference}`)) skipped.push(entry);
    }
    const deltas = new Map<number, number>();
    for (const row of applied) deltas.set(row.user_id, (deltas.get(row.user_id) ?? 0) + row.amount_micros);
    for (const [userId, delta] of [...deltas].sort(([a], [b]) => a - b)) {
      if (delta === 0) continue;
      // Relative update: correct whatever other transactions committed meanwhile.
      await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '+', delta) })).where('id', '=', userId).execute();
    }
    return { applied, skipped, deltas };
  });
}

/** The sum of one user's ledger rows (0 when there are none). */
export async function sumLedgerByUser(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('wallet_ledger')
    // SUM(bigint) is NUMERIC on PostgreSQL (returned as a string): cast it back to bigint.
    .select(sql<number>`cast(coalesce(sum(amount_micros), 0) as bigint)`.as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

interface BalanceMismatch {
  user_id: number;
  balance_micros: number;
  ledger_micros: number;
}

/** Users whose cached balance differs from their ledger's sum; empty when the books are consistent. */
export async function findBalanceMismatches(db: Db): Promise<BalanceMismatch[]> {
  const rows = await db.selectFrom('users')
    .leftJoin('wallet_ledger', 'wallet_ledger.user_id', 'users.id')
    .select(['users.id as user_id', 'users.balance_micros'])
    .select(sql<number>`cast(coalesce(sum(wallet_ledger.amount_micros), 0) as bigint)`.as('ledger_micros'))
    .groupBy(['users.id', 'users.balance_micros'])
    .having(sql`cast(coalesce(sum(wallet_ledger.amount_micros), 0) as bigint)`, '!=', sql.ref('users.balance_micros'))
    .orderBy('users.id')
    .execute();
  return rows.map((row) => ({ user_id: row.user_id, balance_micros: row.balance_micros, ledger_micros: Number(row.ledger_micros) }));
}

/** A user's movements, newest first. */
export async function listLedgerByUser(db: Db, userId: number, options: { limit?: number; beforeId?: number } = {}): Promise<WalletLedgerRow[]> {
  let query = db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', userId);
  if (options.beforeId !== undefined) query = query.where('id', '<', options.beforeId);
  return query.orderBy('id', 'desc').limit(Math.min(options.limit ?? 100, 1000)).execute();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A metering batch's charges, summed per user and per key by the caller (src/metering/metering-writer.ts). */
interface BatchCharges {
  /** Unique per batch: a plain insert, since no conflict is possible. */
  batch: string;
  now: number;
  /** Micro-USD charged per user id, and that user's number of calls in the batch. */
  byUser: ReadonlyMap<number, number>;
  callsByUser: ReadonlyMap<number, number>;
  /** Micro-USD spent per key id. */
  byKey: ReadonlyMap<number, number>;
}

/**
 * One ledger row per user per batch, the users' balances lowered by the same sums and the keys' spend
 * raised. Run inside the batch's transaction, so the balance stays equal to the sum of the ledger.
 */
export async function writeBatchCharges(trx: Db, charges: BatchCharges): Promise<void> {
  const { batch, now, byUser, callsByUser, byKey } = charges;
  if (byUser.size === 0) return;
  await trx.insertInto('wallet_ledger').values([...byUser].map(([userId, total]) => ({
    user_id: userId,
    created_at: now,
    kind: 'charge' as const,
    amount_micros: -total,
    reference: `usage-batch:${batch}:${userId}`,
    note: `${callsByUser.get(userId)} calls`,
  }))).execute();
  for (const [userId, total] of byUser) {
    await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '-', total) })).where('id', '=', userId).execute();
  }
  for (const [keyId, total] of byKey) {
    await trx.updateTable('api_keys').set((eb) => ({ used_micros: eb('used_micros', '+', total), last_used_at: now })).where('id', '=', keyId).execute();
  }
}

/**
 * An administrator's grant (negative: a debit): the ledger row and the cached balance in one transaction.
 * `checkBalance` sees the balance the grant would leave, inside the transaction, and may throw to refuse it.
 * False when the user does not exist.
 */
export async function writeGrant(db: Db, userId: number, amountMicros: number, note: string | null, checkBalance: (balanceAfter: number) => void): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const user = await trx.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirst();
    if (!user) return false;
    checkBalance(user.balance_micros + amountMicros);
    await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '+', amountMicros), updated_at: Date.now() })).where('id', '=', userId).execute();
    await trx.insertInto('wallet_ledger').values({ user_id: userId, created_at: Date.now(), kind: 'grant', amount_micros: amountMicros, reference: null, note }).execute();
    return true;
  });
}

/**
 * One movement that is not a metered call (a top-up, refund or redeemed code): in one transaction, `claim`
 * (the caller's state guard, a conditional update run on the transaction) and, when it claims, the ledger
 * row and the balance. False when it did not claim: then nothing is written.
 */
export async function appendClaimedLedgerEntry(db: Db, entry: Omit<WalletLedgerTable, 'id' | 'created_at'>, claim: (trx: Db) => Promise<boolean>): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await claim(trx))) return false;
    const now = Date.now();
    await trx.insertInto('wallet_ledger').values({ ...entry, created_at: now }).execute();
    await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '+', entry.amount_micros), updated_at: now })).where('id', '=', entry.user_id).execute();
    return true;
  });
}
