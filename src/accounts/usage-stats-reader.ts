// Statistics for the dashboard, from the usage_stats aggregates (never the raw log): totals and series
// (src/metering/statistics.ts) plus a breakdown by key.
import type { Db } from '../db/repositories/repository-helpers.ts';
import { readStats, type StatBucket, type StatScope } from '../metering/statistics.ts';
import { STAT_BUCKETS } from '../metering/metering-writer.ts';

export async function readStatsReport(db: Db, scope: StatScope, bucket: StatBucket, from: number, to: number) {
  let byKey = db.selectFrom('usage_stats')
    .where('bucket', '=', bucket).where('bucket_start', '>=', from - (from % STAT_BUCKETS[bucket])).where('bucket_start', '<', to);
  if (scope.kind === 'key') byKey = byKey.where('key_id', '=', scope.keyId);
  if (scope.kind === 'user') byKey = byKey.where('user_id', '=', scope.userId);
  // Independent reads: on PostgreSQL they run on separate pooled connections at the same time.
  const [report, keyRows] = await Promise.all([readStats(db, scope, bucket, from, to), byKey.select((eb) => [
    'key_id',
    eb.fn.sum<number>('requests').as('requests'),
    eb.fn.sum<number>('errors').as('errors'),
    eb.fn.sum<number>('input_tokens').as('input_tokens'),
    eb.fn.sum<number>('output_tokens').as('output_tokens'),
    eb.fn.sum<number>('cost_micros').as('cost_micros'),
  ]).groupBy('key_id').orderBy('key_id').execute()]);
  const ids = keyRows.map((row) => row.key_id);
  const names = ids.length === 0 ? new Map<number, string>() : new Map((await db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', ids).execute()).map((row) => [row.id, row.name]));
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
      key_name: names.get(row.key_id) ?? null,
      requests: Number(row.requests ?? 0),
      errors: Number(row.errors ?? 0),
      inputTokens: Number(row.input_tokens ?? 0),
      outputTokens: Number(row.output_tokens ?? 0),
      costMicros: Number(row.cost_micros ?? 0),
      costUsd: usd(Number(row.cost_micros ?? 0)),
    })),
  };
}
