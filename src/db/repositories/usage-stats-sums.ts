// Sums over the statistics aggregates for one scope: a key's or a user's usage_stats rows (indexed by key
// and by user), or the platform roll-up (one row per bucket and model). src/metering/statistics.ts turns
// them into a report.
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { DatabaseSchema } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

/** `keys`: some keys of one account (an organisation member's keys of its wallet account). */
export type StatScope = { kind: 'key'; keyId: number } | { kind: 'user'; userId: number } | { kind: 'keys'; userId: number; keyIds: readonly number[] } | { kind: 'platform' };

/** Sums as the engines return them (strings on PostgreSQL, null over no rows): the caller makes numbers. */
export interface StatSums { requests: unknown; errors: unknown; input_tokens: unknown; output_tokens: unknown; cost_micros: unknown }

interface StatSpan { bucket: string; from: number; to: number }

type PlatformQuery = SelectQueryBuilder<DatabaseSchema, 'usage_stats_platform', object>;

const sums = (eb: ExpressionBuilder<DatabaseSchema, 'usage_stats_platform'>) => [
  eb.fn.sum<number>('requests').as('requests'),
  eb.fn.sum<number>('errors').as('errors'),
  eb.fn.sum<number>('input_tokens').as('input_tokens'),
  eb.fn.sum<number>('output_tokens').as('output_tokens'),
  eb.fn.sum<number>('cost_micros').as('cost_micros'),
];

/** Per bucket_start, buckets of one size starting in [from, to). */
export async function sumStatSeries(db: Db, scope: StatScope, bucket: string, from: number, to: number): Promise<(StatSums & { bucket_start: unknown })[]> {
  return statRowsOf(db, scope).where('bucket', '=', bucket).where('bucket_start', '>=', from).where('bucket_start', '<', to)
    .select((eb) => ['bucket_start', ...sums(eb)]).groupBy('bucket_start').orderBy('bucket_start').execute();
}

/** Per model, over the rows of any of `spans` (none when there are no spans). */
export async function sumStatsByModel(db: Db, scope: StatScope, spans: readonly StatSpan[]): Promise<(StatSums & { model: string })[]> {
  return statRowsOf(db, scope)
    .where((eb) => eb.or(spans.map((span) => eb.and([eb('bucket', '=', span.bucket), eb('bucket_start', '>=', span.from), eb('bucket_start', '<', span.to)]))))
    .select((eb) => ['model', ...sums(eb)]).groupBy('model').orderBy('model').execute();
}

/** Requests and tokens per minute bucket starting at or after `since`. */
export async function sumMinuteRates(db: Db, scope: StatScope, since: number): Promise<{ bucket_start: unknown; requests: unknown; input_tokens: unknown; output_tokens: unknown }[]> {
  return statRowsOf(db, scope).where('bucket', '=', 'minute').where('bucket_start', '>=', since)
    .select((eb) => ['bucket_start', eb.fn.sum<number>('requests').as('requests'), eb.fn.sum<number>('input_tokens').as('input_tokens'), eb.fn.sum<number>('output_tokens').as('output_tokens')])
    .groupBy('bucket_start').execute();
}

/**
 * The aggregate rows a scope reads, typed by the columns both tables share (bucket, start, model and the
 * counters): usage_stats narrowed to a key or a user, or the platform roll-up.
 */
function statRowsOf(db: Db, scope: StatScope): PlatformQuery {
  if (scope.kind === 'platform') return db.selectFrom('usage_stats_platform');
  return ownStatRows(db, scope) as unknown as PlatformQuery;
}

/** usage_stats narrowed to a key, a user, or some keys of a user (indexed by user, then key). */
function ownStatRows(db: Db, scope: Exclude<StatScope, { kind: 'platform' }>) {
  const rows = db.selectFrom('usage_stats');
  if (scope.kind === 'key') return rows.where('key_id', '=', scope.keyId);
  const ofUser = rows.where('user_id', '=', scope.userId);
  // No keys: no rows (an empty IN list is not valid SQL).
  return scope.kind === 'keys' ? ofUser.where('key_id', 'in', scope.keyIds.length > 0 ? [...scope.keyIds] : [-1]) : ofUser;
}

/**
 * The `limit` largest keys by cost (then requests, then id) over the spans, with their names, each row also
 * carrying the window sums over every key (all_*), so "the rest" needs no second query: one round trip.
 */
export async function sumTopKeys(db: Db, scope: StatScope, spans: readonly StatSpan[], limit: number) {
  const sums = keyRowsOf(db, scope)
    .where((eb) => eb.or(spans.map((span) => eb.and([eb('bucket', '=', span.bucket), eb('bucket_start', '>=', span.from), eb('bucket_start', '<', span.to)]))))
    .select((eb: ExpressionBuilder<DatabaseSchema, 'usage_stats_keys'>) => [
      'key_id' as const,
      eb.fn.sum<number>('requests').as('requests'),
      eb.fn.sum<number>('errors').as('errors'),
      eb.fn.sum<number>('input_tokens').as('input_tokens'),
      eb.fn.sum<number>('output_tokens').as('output_tokens'),
      eb.fn.sum<number>('cost_micros').as('cost_micros'),
    ]).groupBy('key_id');
  // Window sums over every key ride along on each of the top rows, so "the rest" needs no second query;
  // only the top rows are sorted past the limit, joined to their names and sent (a platform has ~1,000 keys).
  const top = db.selectFrom(sums.as('sums')).select((eb) => [
    'key_id', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros',
    eb.fn.countAll<number>().over().as('all_keys'),
    eb.fn.sum<number>('requests').over().as('all_requests'),
    eb.fn.sum<number>('errors').over().as('all_errors'),
    eb.fn.sum<number>('input_tokens').over().as('all_input_tokens'),
    eb.fn.sum<number>('output_tokens').over().as('all_output_tokens'),
    eb.fn.sum<number>('cost_micros').over().as('all_cost_micros'),
  ]).orderBy('cost_micros', 'desc').orderBy('requests', 'desc').orderBy('key_id').limit(limit);
  return db.selectFrom(top.as('top')).leftJoin('api_keys', 'api_keys.id', 'top.key_id').selectAll('top').select('api_keys.name as key_name')
    .orderBy('top.cost_micros', 'desc').orderBy('top.requests', 'desc').orderBy('top.key_id').execute();
}

/** A key's or a user's own usage_stats rows (indexed), or the platform's per-key roll-up. */
function keyRowsOf(db: Db, scope: StatScope): SelectQueryBuilder<DatabaseSchema, 'usage_stats_keys', object> {
  if (scope.kind === 'platform') return db.selectFrom('usage_stats_keys');
  return ownStatRows(db, scope) as unknown as SelectQueryBuilder<DatabaseSchema, 'usage_stats_keys', object>;
}
