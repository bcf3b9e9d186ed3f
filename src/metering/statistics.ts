// Statistics from the usage_stats aggregates (minute, hour and day buckets), never from the raw log:
// requests, errors, tokens and cost over time, by model, and the current RPM and TPM.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { STAT_BUCKETS } from './metering-writer.ts';

export type StatBucket = keyof typeof STAT_BUCKETS;
export type StatScope = { kind: 'key'; keyId: number } | { kind: 'user'; userId: number } | { kind: 'platform' };

export interface StatPoint {
  start: number;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
}

export interface StatsReport {
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
  const scoped = () => {
    let query = db.selectFrom('usage_stats').where('bucket', '=', bucket).where('bucket_start', '>=', from - (from % STAT_BUCKETS[bucket])).where('bucket_start', '<', to);
    if (scope.kind === 'key') query = query.where('key_id', '=', scope.keyId);
    if (scope.kind === 'user') query = query.where('user_id', '=', scope.userId);
    return query;
  };
  const sums = (eb: ExpressionBuilder<DatabaseSchema, 'usage_stats'>) => [
    eb.fn.sum<number>('requests').as('requests'),
    eb.fn.sum<number>('errors').as('errors'),
    eb.fn.sum<number>('input_tokens').as('input_tokens'),
    eb.fn.sum<number>('output_tokens').as('output_tokens'),
    eb.fn.sum<number>('cost_micros').as('cost_micros'),
  ];
  const seriesRows = await scoped().select((eb) => ['bucket_start', ...sums(eb)]).groupBy('bucket_start').orderBy('bucket_start').execute();
  const modelRows = await scoped().select((eb) => ['model', ...sums(eb)]).groupBy('model').orderBy('model').execute();
  const series = seriesRows.map((row) => ({ start: Number(row.bucket_start), ...point(row) }));
  const totals = series.reduce((sum, p) => ({
    requests: sum.requests + p.requests, errors: sum.errors + p.errors, inputTokens: sum.inputTokens + p.inputTokens,
    outputTokens: sum.outputTokens + p.outputTokens, costMicros: sum.costMicros + p.costMicros,
  }), { requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costMicros: 0 });
  const { rpm, tpm } = await readRates(db, scope, now);
  return { bucket, from, to, totals, series, byModel: modelRows.map((row) => ({ model: row.model, ...point(row) })), rpm, tpm };
}

async function readRates(db: Kysely<DatabaseSchema>, scope: StatScope, now: number): Promise<{ rpm: number; tpm: number }> {
  const minute = STAT_BUCKETS.minute;
  const current = now - (now % minute);
  let query = db.selectFrom('usage_stats').where('bucket', '=', 'minute').where('bucket_start', '>=', current - minute);
  if (scope.kind === 'key') query = query.where('key_id', '=', scope.keyId);
  if (scope.kind === 'user') query = query.where('user_id', '=', scope.userId);
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

function point(row: { requests: unknown; errors: unknown; input_tokens: unknown; output_tokens: unknown; cost_micros: unknown }): Omit<StatPoint, 'start'> {
  return {
    requests: Number(row.requests ?? 0),
    errors: Number(row.errors ?? 0),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  };
}
