// GET /healthz (readiness: migrations and config applied) and GET /metrics (Prometheus).
import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../metrics.ts';

export function healthRoutes(app: FastifyInstance, metrics: GatewayMetrics, isReady: () => boolean): void {
  app.get('/healthz', async (_request, reply) => {
    if (!isReady()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });
  app.get('/metrics', async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
