// GET /api/stats: requests, errors, tokens, cost, RPM and TPM, from the aggregates.
// ?scope=key (the calling key, default) | user (all of its owner's keys) | platform (admins only);
// ?bucket=minute|hour|day (default hour); ?from=&to= (epoch ms; default the last 24 hours).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { GatewayState } from '../../gateway-state.ts';
import { GatewayError, invalidRequest } from '../../gateway-errors.ts';
import { readStats, type StatBucket, type StatScope } from '../../metering/statistics.ts';
import { STAT_BUCKETS } from '../../metering/metering-writer.ts';
import { authenticateRequest } from '../authenticate.ts';

export function statsRoute(app: FastifyInstance, state: GatewayState, db: Kysely<DatabaseSchema>): void {
  app.get('/api/stats', { config: { errorFormat: 'openai' } }, async (request) => {
    const key = authenticateRequest(state, request);
    const query = request.query as Record<string, string | undefined>;
    // Own keys only: `in` also finds 'constructor' and friends on the prototype (a 500 on PostgreSQL).
    const bucket = (query.bucket ?? 'hour') as StatBucket;
    if (!Object.hasOwn(STAT_BUCKETS, bucket)) throw invalidRequest(`Invalid value for 'bucket': expected minute, hour or day.`, 'bucket');
    const now = Date.now();
    const to = query.to === undefined ? now : Number(query.to);
    const from = query.from === undefined ? to - 86_400_000 : Number(query.from);
    if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) throw invalidRequest("'from' and 'to' must be epoch milliseconds with from ≤ to.", 'from');
    let scope: StatScope;
    switch (query.scope ?? 'key') {
      case 'key': scope = { kind: 'key', keyId: key.id }; break;
      case 'user': scope = { kind: 'user', userId: key.userId }; break;
      case 'platform':
        if (key.userRole !== 'admin') throw new GatewayError(403, 'permission_error', 'GW_ERR_ADMIN_ONLY', { message: 'Platform statistics are for administrators.', code: 'admin_only' });
        scope = { kind: 'platform' };
        break;
      default: throw invalidRequest(`Invalid value for 'scope': expected key, user or platform.`, 'scope');
    }
    const report = await readStats(db, scope, bucket, from, to, now);
    const usd = (micros: number) => micros / 1_000_000;
    return {
      scope: query.scope ?? 'key',
      bucket,
      from,
      to,
      rpm: report.rpm,
      tpm: report.tpm,
      totals: { ...report.totals, costUsd: usd(report.totals.costMicros) },
      series: report.series,
      by_model: report.byModel,
    };
  });
}
