// Who may read /metrics: anyone who can reach it (the default, for a port firewalled to the scraper), only a
// scraper presenting METRICS_TOKEN as a Bearer token, and/or only on a port of its own (METRICS_PORT).
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { GatewayMetrics } from './metrics.ts';

export interface MetricsAccess {
  /** When set, a request must carry `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

/** Compares digests, so the comparison takes the same time whatever the presented token. */
function tokenMatches(expected: string, authorization: string | undefined): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function serveMetrics(app: FastifyInstance, metrics: GatewayMetrics, access: MetricsAccess): void {
  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    if (access.token !== undefined && !tokenMatches(access.token, request.headers.authorization)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').type('application/json')
        .send({ error: { message: 'GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`.', type: 'authentication_error', param: null, code: 'invalid_metrics_token' } });
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}

/** /metrics alone on its own address (METRICS_HOST:METRICS_PORT); the API port then has no /metrics. */
export async function startMetricsServer(metrics: GatewayMetrics, access: MetricsAccess, host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  serveMetrics(app, metrics, access);
  const url = await app.listen({ host, port });
  return { url, close: () => app.close() };
}
