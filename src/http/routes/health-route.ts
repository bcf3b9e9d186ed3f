// GET /healthz (readiness: migrations and config applied) and GET /metrics (Prometheus).
import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../metrics.ts';
import { serveMetrics, type MetricsAccess } from '../metrics-access.ts';

/** `metricsAccess` null: /metrics is served on its own port instead (METRICS_PORT). */
export function healthRoutes(app: FastifyInstance, metrics: GatewayMetrics, isReady: () => boolean, metricsAccess: MetricsAccess | null = {}): void {
  app.get('/healthz', async (_request, reply) => {
    if (!isReady()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });
  if (metricsAccess) serveMetrics(app, metrics, metricsAccess);
}
