// Statistics from the usage_stats aggregates (minute, hour and day buckets), never from the raw log:
// requests, errors, tokens and cost over time, by model, and the current RPM and TPM. A user's or a key's
// read their own usage_stats rows (indexed by user and by key); the platform's read usage_stats_platform,
// one row per bucket and model, instead of every user's, key's and model's rows in the range.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { STAT_BUCKETS } from './metering-writer.ts';
import { coveringSpans, type BucketSpan } from './stat-ranges.ts';

export type StatBucket = keyof typeof STAT_BUCKETS;
/** `keys`: some keys of one account (an organisation member's keys of its wallet account). */
export type StatScope = { kind: 'key'; keyId: number } | { kind: 'user'; userId: number } | { kind: 'keys'; userId: number; keyIds: readonly number[] } | { kind: 'platform' };

interface StatPoint {
  start: number;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
}

interface StatsReport {
  bucket: StatBucket;
  from: number;
  to: number;
  totals: Omit<StatPoint, 'start'>;
  series: StatPoint[];
  byModel: (Omit<StatPoint, 'start'> & { model: string })[];
  /** Requests and tokens per minute over the last 60 seconds (sliding estimate from minute buckets). */
  rpm: number;
  tpm: number;
}

export async function readStats(db: Kysely<DatabaseSchema>, scope: StatScope, bucket: StatBucket, from: number, to: number, now = Date.now()): Promise<StatsReport> {
  const scoped = () => statRowsOf(db, scope).where('bucket', '=', bucket).where('bucket_start', '>=', from - (from % STAT_BUCKETS[bucket])).where('bucket_start', '<', to);
  const sums = (eb: ExpressionBuilder<DatabaseSchema, 'usage_stats_platform'>) => [
    eb.fn.sum<number>('requests').as('requests'),
    eb.fn.sum<number>('errors').as('errors'),
    eb.fn.sum<number>('input_tokens').as('input_tokens'),
    eb.fn.sum<number>('output_tokens').as('output_tokens'),
    eb.fn.sum<number>('cost_micros').as('cost_micros'),
  ];
  // Independent reads: on PostgreSQL each runs on its own pooled connection, at the same time.
  const [seriesRows, modelRows, rates] = await Promise.all([
    scoped().select((eb) => ['bucket_start', ...sums(eb)]).groupBy('bucket_start').orderBy('bucket_start').execute(),
    // The by-model sums cover the whole range: the coarsest buckets that cover it exactly (a day's hour
    // buckets, not its 1,440 minute buckets; stat-ranges.ts) read a fraction of the series' rows.
    covering(statRowsOf(db, scope), coveringSpans(bucket, from, to)).select((eb) => ['model', ...sums(eb)]).groupBy('model').orderBy('model').execute(),
    readRates(db, scope, now),
  ]);
  const series = seriesRows.map((row) => ({ start: Number(row.bucket_start), ...point(row) }));
  const totals = series.reduce((sum, p) => ({
    requests: sum.requests + p.requests, errors: sum.errors + p.errors, inputTokens: sum.inputTokens + p.inputTokens,
    outputTokens: sum.outputTokens + p.outputTokens, costMicros: sum.costMicros + p.costMicros,
  }), { requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costMicros: 0 });
  const { rpm, tpm } = rates;
  return { bucket, from, to, totals, series, byModel: modelRows.map((row) => ({ model: row.model, ...point(row) })), rpm, tpm };
}

async function readRates(db: Kysely<DatabaseSchema>, scope: StatScope, now: number): Promise<{ rpm: number; tpm: number }> {
  const minute = STAT_BUCKETS.minute;
  const current = now - (now % minute);
  const query = statRowsOf(db, scope).where('bucket', '=', 'minute').where('bucket_start', '>=', current - minute);
  const rows = await query.select((eb) => ['bucket_start', eb.fn.sum<number>('requests').as('requests'), eb.fn.sum<number>('input_tokens').as('input_tokens'), eb.fn.sum<number>('output_tokens').as('output_tokens')]).groupBy('bucket_start').execute();
  // The previous minute counts for the part of it still inside the last 60 seconds.
  const previousWeight = 1 - (now - current) / minute;
  let rpm = 0;
  let tpm = 0;
  for (const row of rows) {
    const weight = Number(row.bucket_start) === current ? 1 : previousWeight;
    rpm += Number(row.requests) * weight;
    tpm += (Number(row.input_tokens) + Number(row.output_tokens)) * weight;
  }
  return { rpm: Math.round(rpm), tpm: Math.round(tpm) };
}

/** Rows in any of `spans` (none when there are no spans). */
function covering<Query extends SelectQueryBuilder<DatabaseSchema, 'usage_stats_platform', object>>(query: Query, spans: readonly BucketSpan[]): Query {
  return query.where((eb) => eb.or(spans.map((span) => eb.and([eb('bucket', '=', span.bucket), eb('bucket_start', '>=', span.from), eb('bucket_start', '<', span.to)])))) as Query;
}

/**
 * The aggregate rows a scope reads, typed by the columns both tables share (bucket, start, model and the
 * counters): usage_stats narrowed to a key or a user, or the platform roll-up.
 */
function statRowsOf(db: Kysely<DatabaseSchema>, scope: StatScope): SelectQueryBuilder<DatabaseSchema, 'usage_stats_platform', object> {
  if (scope.kind === 'platform') return db.selectFrom('usage_stats_platform');
  return ownStatRows(db, scope) as unknown as SelectQueryBuilder<DatabaseSchema, 'usage_stats_platform', object>;
}

function point(row: { requests: unknown; errors: unknown; input_tokens: unknown; output_tokens: unknown; cost_micros: unknown }): Omit<StatPoint, 'start'> {
  return {
    requests: Number(row.requests ?? 0),
    errors: Number(row.errors ?? 0),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  };
}

/** usage_stats narrowed to a key, a user, or some keys of a user (indexed by user, then key). */
export function ownStatRows(db: Kysely<DatabaseSchema>, scope: Exclude<StatScope, { kind: 'platform' }>) {
  const rows = db.selectFrom('usage_stats');
  if (scope.kind === 'key') return rows.where('key_id', '=', scope.keyId);
  const ofUser = rows.where('user_id', '=', scope.userId);
  // No keys: no rows (an empty IN list is not valid SQL).
  return scope.kind === 'keys' ? ofUser.where('key_id', 'in', scope.keyIds.length > 0 ? [...scope.keyIds] : [-1]) : ofUser;
}
