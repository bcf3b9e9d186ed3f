// The reads behind a user's wallet page (src/accounts/wallet-reader.ts): totals and one page of movements.
import type { Db } from './repository-helpers.ts';

/** All-time requests and cost of a user, from the day aggregates (costs the same with a million calls). */
export async function sumUserDayTotals(db: Db, userId: number): Promise<{ requests: number; cost_micros: number }> {
  const totals = await db.selectFrom('usage_stats').where('bucket', '=', 'day').where('user_id', '=', userId)
    .select((eb) => [eb.fn.sum<number>('requests').as('requests'), eb.fn.sum<number>('cost_micros').as('cost_micros')]).executeTakeFirst();
  return { requests: Number(totals?.requests ?? 0), cost_micros: Number(totals?.cost_micros ?? 0) };
}

/** A user's ledger rows other than charges created before `until`, newest first. */
export async function listMovementsBefore(db: Db, userId: number, until: number, limit: number) {
  return db.selectFrom('wallet_ledger').select(['kind', 'amount_micros', 'created_at', 'note', 'reference'])
    .where('user_id', '=', userId).where('created_at', '<', until)
    // Two ranges of the (user_id, kind, created_at) index rather than a scan of every charge row; any kind but charge.
    .where((eb) => eb.or([eb('kind', '<', 'charge'), eb('kind', '>', 'charge')]))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * A user's charges summed per day (days starting before `until`, with a cost), newest first. From the day
 * aggregates (written in the same transaction as the charge rows, so the sums are equal), read through the
 * (user_id, bucket, bucket_start) index: summing the raw charge rows took 400-800 ms for a user with 500,000 calls.
 */
export async function sumChargesPerDayBefore(db: Db, userId: number, until: number, limit: number): Promise<{ day: number; amount: number; n: number }[]> {
  const rows = await db.selectFrom('usage_stats')
    .select((eb) => ['bucket_start as day', eb.fn.sum<number>('cost_micros').as('amount'), eb.fn.sum<number>('requests').as('n')])
    .where('user_id', '=', userId).where('bucket', '=', 'day').where('bucket_start', '<', until)
    .groupBy('bucket_start').having((eb) => eb.fn.sum('cost_micros'), '>', 0).orderBy('bucket_start', 'desc').limit(limit).execute();
  return rows.map((row) => ({ day: Number(row.day), amount: Number(row.amount), n: Number(row.n) }));
}
