// Prometheus metrics served at /metrics. One registry per app so tests can run several apps in one process.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface GatewayMetrics {
  registry: Registry;
  requests: Counter<'route' | 'model' | 'status'>;
  upstreamLatency: Histogram<'channel'>;
  tokens: Counter<'model' | 'direction'>;
}

export function createMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'gateway_requests_total',
      help: 'Requests answered, by route, model and HTTP status.',
      labelNames: ['route', 'model', 'status'],
      registers: [registry],
    }),
    upstreamLatency: new Histogram({
      name: 'gateway_upstream_response_seconds',
      help: 'Time from sending a request upstream to its response headers, by channel.',
      labelNames: ['channel'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    tokens: new Counter({
      name: 'gateway_tokens_total',
      help: 'Tokens metered, by model and direction (input or output).',
      labelNames: ['model', 'direction'],
      registers: [registry],
    }),
  };
}

/** The `model` label of a request: a model the gateway knows, '' for none, else 'other'. Labels are kept
 * forever, so one per string a client invents (each unknown 1 MB model name) grew memory without bound. */
export function boundedMetricsModel(snapshot: { models: ReadonlyMap<string, unknown>; routing: { isServedAnywhere(model: string): boolean } }, model: string | undefined): string {
  if (model === undefined || model === '') return '';
  return snapshot.models.has(model) || snapshot.routing.isServedAnywhere(model) ? model : 'other';
}
