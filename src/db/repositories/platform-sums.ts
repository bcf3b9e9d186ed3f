// Sums for the administrators' platform overview (src/admin/platform-overview.ts): the users who cost most
// over a range of per-key roll-up buckets, and the money that came in (card top-ups, redeemed codes).
import type { ExpressionBuilder } from 'kysely';
import type { DatabaseSchema } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

interface StatSpan { bucket: string; from: number; to: number }

/** The `limit` users who cost most over the rows of any of `spans`, with their name and e-mail. */
export async function sumTopUsers(db: Db, spans: readonly StatSpan[], limit: number) {
  const sums = db.selectFrom('usage_stats_keys')
    .where((eb) => eb.or(spans.map((span) => eb.and([eb('bucket', '=', span.bucket), eb('bucket_start', '>=', span.from), eb('bucket_start', '<', span.to)]))))
    .select((eb: ExpressionBuilder<DatabaseSchema, 'usage_stats_keys'>) => [
      'user_id' as const,
      eb.fn.sum<number>('requests').as('requests'),
      eb.fn.sum<number>('errors').as('errors'),
      eb.fn.sum<number>('cost_micros').as('cost_micros'),
    ]).groupBy('user_id');
  const top = db.selectFrom(sums.as('sums')).selectAll().orderBy('cost_micros', 'desc').orderBy('requests', 'desc').orderBy('user_id').limit(limit);
  return db.selectFrom(top.as('top')).leftJoin('users', 'users.id', 'top.user_id')
    .select(['top.user_id', 'top.requests', 'top.errors', 'top.cost_micros', 'users.name', 'users.email'])
    .orderBy('top.cost_micros', 'desc').orderBy('top.requests', 'desc').orderBy('top.user_id').execute();
}

/** Card payments completed in [from, to) (refunded ones too, with what was refunded) and codes redeemed then. */
export async function sumRevenue(db: Db, from: number, to: number) {
  const [cards, codes] = await Promise.all([
    db.selectFrom('payments').where('completed_at', '>=', from).where('completed_at', '<', to).where('status', 'in', ['completed', 'refunded'])
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount_micros').as('amount'), eb.fn.sum<number>('refunded_micros').as('refunded')])
      .executeTakeFirst(),
    db.selectFrom('redemption_codes').where('redeemed_at', '>=', from).where('redeemed_at', '<', to)
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount_micros').as('amount')])
      .executeTakeFirst(),
  ]);
  return { cards, codes };
}
