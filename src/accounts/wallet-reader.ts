// The wallet page: balance, total usage and requests, and the ledger (top-ups, grants and refunds one by
// one, charges summed per day), newest first, paginated with a cursor.
import type { Db } from '../db/repositories/repository-helpers.ts';
import { invalidRequest } from '../gateway-errors.ts';

interface LedgerEntryView {
  kind: string;
  amount_usd: number;
  at: string;
  note: string | null;
  reference: string | null;
  /** For charges: how many calls the day's sum covers. */
  count?: number;
}

export async function readWalletSummary(db: Db, userId: number, liveBalanceMicros: number) {
  // From the day aggregates, so it costs the same with a million calls.
  const totals = await db.selectFrom('usage_stats').where('bucket', '=', 'day').where('user_id', '=', userId)
    .select((eb) => [eb.fn.sum<number>('requests').as('requests'), eb.fn.sum<number>('cost_micros').as('cost_micros')]).executeTakeFirst();
  return {
    balance_usd: liveBalanceMicros / 1_000_000,
    total_usage_usd: Number(totals?.cost_micros ?? 0) / 1_000_000,
    requests: Number(totals?.requests ?? 0),
  };
}

/** `before`: an opaque cursor (the next_cursor of the previous page). */
export async function readLedgerPage(db: Db, userId: number, limit: number, before: string | undefined) {
  let until = Number.MAX_SAFE_INTEGER;
  if (before !== undefined) {
    until = Number(Buffer.from(before, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(until)) throw invalidRequest("Invalid value for 'cursor'.", 'cursor', 'invalid_value');
  }
  const movements = await db.selectFrom('wallet_ledger').select(['kind', 'amount_micros', 'created_at', 'note', 'reference'])
    .where('user_id', '=', userId).where('created_at', '<', until)
    // Two ranges of the (user_id, kind, created_at) index rather than a scan of every charge row; any kind but charge.
    .where((eb) => eb.or([eb('kind', '<', 'charge'), eb('kind', '>', 'charge')]))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  // Charges per day come from the day aggregates (written in the same transaction as the charge rows, so
  // the sums are equal), read through the (user_id, bucket, bucket_start) index: summing the raw charge
  // rows took 400-800 ms for a user with 500,000 calls. A day is listed once, at its start.
  const charges = await db.selectFrom('usage_stats')
    .select((eb) => ['bucket_start as day', eb.fn.sum<number>('cost_micros').as('amount'), eb.fn.sum<number>('requests').as('n')])
    .where('user_id', '=', userId).where('bucket', '=', 'day').where('bucket_start', '<', until)
    .groupBy('bucket_start').having((eb) => eb.fn.sum('cost_micros'), '>', 0).orderBy('bucket_start', 'desc').limit(limit).execute();
  const entries: (LedgerEntryView & { ms: number })[] = [
    ...movements.map((row) => ({ kind: row.kind, amount_usd: row.amount_micros / 1_000_000, at: new Date(row.created_at).toISOString(), note: row.note, reference: row.reference, ms: row.created_at })),
    ...charges.map((row) => ({ kind: 'charges', amount_usd: -Number(row.amount) / 1_000_000, at: new Date(Number(row.day)).toISOString(), note: null, reference: null, count: Number(row.n), ms: Number(row.day) })),
  ].sort((a, b) => b.ms - a.ms);
  const page = entries.slice(0, limit);
  const more = entries.length > limit || movements.length === limit || charges.length === limit;
  const last = page[page.length - 1];
  return {
    data: page.map(({ ms: _ms, ...entry }) => entry),
    next_cursor: more && last ? Buffer.from(String(last.ms)).toString('base64url') : null,
  };
}
