// Prometheus metrics served at /metrics. One registry per app so tests can run several apps in one process.
// The per-request series count in our own objects (fast-metrics.ts) and reach prom-client only when scraped.
import { Registry, collectDefaultMetrics } from './prom-client-parts.ts';
import { FastCounter, FastHistogram } from './fast-metrics.ts';

export interface GatewayMetrics {
  registry: Registry;
  requests: FastCounter<'route' | 'model' | 'status'>;
  upstreamLatency: FastHistogram<'channel'>;
  tokens: FastCounter<'model' | 'direction'>;
  // Cost, latency and routing outcomes (labels are served models, group and channel names from the
  // operator's config only, so their sets stay bounded).
  costMicros: FastCounter<'model' | 'group'>;
  timeToFirstToken: FastHistogram<'model'>;
  failovers: FastCounter<'model'>;
  /** Failed and refused calls by route and gateway error code (a closed set: src/gateway-error-codes.ts). */
  errors: FastCounter<'endpoint' | 'code'>;
  /** The gateway's own time per call (the `x-gateway-overhead-ms` header), by route. */
  overhead: FastHistogram<'endpoint'>;
}

export function createMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics(registry);
  return {
    registry,
    requests: new FastCounter({
      name: 'gateway_requests_total',
      help: 'Requests answered, by route, model and HTTP status.',
      labelNames: ['route', 'model', 'status'],
      registers: [registry],
    }),
    upstreamLatency: new FastHistogram({
      name: 'gateway_upstream_response_seconds',
      help: 'Time from sending a request upstream to its response headers, by channel.',
      labelNames: ['channel'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    tokens: new FastCounter({
      name: 'gateway_tokens_total',
      help: 'Tokens metered, by model and direction (input or output).',
      labelNames: ['model', 'direction'],
      registers: [registry],
    }),
    costMicros: new FastCounter({
      name: 'gateway_cost_micro_usd_total',
      help: 'Money charged for answered calls, in micro-USD, by model and the key\'s group.',
      labelNames: ['model', 'group'],
      registers: [registry],
    }),
    timeToFirstToken: new FastHistogram({
      name: 'gateway_time_to_first_token_seconds',
      help: 'Time from a streamed request arriving to its first event reaching the client, by model.',
      labelNames: ['model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 60],
      registers: [registry],
    }),
    failovers: new FastCounter({
      name: 'gateway_failovers_total',
      help: 'Calls that moved from one channel to another before (or while) answering, by requested model.',
      labelNames: ['model'],
      registers: [registry],
    }),
    errors: new FastCounter({
      name: 'gateway_errors_total',
      help: 'Calls that failed or were refused (the key known), by route and gateway error code (GW_ERR_…).',
      labelNames: ['endpoint', 'code'],
      registers: [registry],
    }),
    overhead: new FastHistogram({
      name: 'gateway_overhead_seconds',
      help: 'Time a relayed call spent in the gateway itself (its time less the upstream waits: to the answer, or to a stream\'s first event), by route.',
      labelNames: ['endpoint'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
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
