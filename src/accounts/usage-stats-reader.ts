// Statistics for the dashboard, from the aggregates (never the raw log): totals and series
// (src/metering/statistics.ts) plus a breakdown by key. The breakdown sums the whole range, so it reads
// the coarsest buckets that cover it (stat-ranges.ts); the platform's from usage_stats_keys (no row per model).
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { readStats, type StatBucket, type StatScope } from '../metering/statistics.ts';
import { coveringSpans } from '../metering/stat-ranges.ts';

export async function readStatsReport(db: Db, scope: StatScope, bucket: StatBucket, from: number, to: number) {
  // Independent reads: on PostgreSQL they run on separate pooled connections at the same time.
  const [report, keyRows] = await Promise.all([readStats(db, scope, bucket, from, to), readByKey(db, scope, bucket, from, to)]);
  const usd = (micros: number) => micros / 1_000_000;
  const windowMinutes = Math.max(1, (to - from) / 60_000);
  return {
    bucket,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    rpm: report.rpm,
    tpm: report.tpm,
    totals: {
      ...report.totals,
      costUsd: usd(report.totals.costMicros),
      // Averages over the range, beside the "now" rates above.
      avgRpm: report.totals.requests / windowMinutes,
      avgTpm: (report.totals.inputTokens + report.totals.outputTokens) / windowMinutes,
    },
    series: report.series.map((point) => ({ ...point, costUsd: usd(point.costMicros) })),
    by_model: report.byModel.map((row) => ({ ...row, costUsd: usd(row.costMicros) })),
    by_key: keyRows.map((row) => ({
      key_id: row.key_id,
      key_name: row.key_name ?? null,
      requests: Number(row.requests ?? 0),
      errors: Number(row.errors ?? 0),
      inputTokens: Number(row.input_tokens ?? 0),
      outputTokens: Number(row.output_tokens ?? 0),
      costMicros: Number(row.cost_micros ?? 0),
      costUsd: usd(Number(row.cost_micros ?? 0)),
    })),
  };
}

async function readByKey(db: Db, scope: StatScope, bucket: StatBucket, from: number, to: number) {
  const spans = coveringSpans(bucket, from, to);
  if (spans.length === 0) return [];
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
  // The keys' names in the same round trip (a platform breakdown names a thousand keys).
  return db.selectFrom(sums.as('sums')).leftJoin('api_keys', 'api_keys.id', 'sums.key_id')
    .select(['sums.key_id', 'sums.requests', 'sums.errors', 'sums.input_tokens', 'sums.output_tokens', 'sums.cost_micros', 'api_keys.name as key_name'])
    .orderBy('sums.key_id').execute();
}

/** A key's or a user's own usage_stats rows (indexed), or the platform's per-key roll-up. */
function keyRowsOf(db: Db, scope: StatScope): SelectQueryBuilder<DatabaseSchema, 'usage_stats_keys', object> {
  if (scope.kind === 'platform') return db.selectFrom('usage_stats_keys');
  const own = db.selectFrom('usage_stats').where(scope.kind === 'key' ? 'key_id' : 'user_id', '=', scope.kind === 'key' ? scope.keyId : scope.userId);
  return own as unknown as SelectQueryBuilder<DatabaseSchema, 'usage_stats_keys', object>;
}
