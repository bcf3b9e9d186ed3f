// What the relay needs from the rest of the gateway, passed in so tests and the app wire it the same way.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import type { Logger } from 'pino';
import type { GatewayState } from '../gateway-state.ts';
import type { UsageRecorder } from '../metering/usage-recorder.ts';
import type { GatewayMetrics } from '../http/metrics.ts';
import type { Accounting } from '../metering/accounting.ts';
import type { RateLimiter } from '../metering/rate-limiter.ts';
import type { CircuitBreakers } from '../routing/circuit-breaker.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { ResponseOwners } from '../responses/response-owners.ts';
import type { CallTracer } from '../telemetry/call-trace.ts';
import type { AccessLog } from '../telemetry/access-log.ts';
import type { IncomingHttpHeaders } from 'node:http';

export interface RelayDeps {
  agents: UpstreamAgents;
  state: GatewayState;
  recorder: UsageRecorder;
  logger: Logger;
  metrics: GatewayMetrics;
  accounting: Accounting;
  rateLimiter: RateLimiter;
  breakers: CircuitBreakers;
  /** Takes a channel out of routing (its key was refused), recording why; an admin can re-enable it. */
  disableChannel(channel: RoutedChannel, reason: string): Promise<void>;
  /** Whether image URLs on private networks may be fetched for targets that need the bytes. */
  imageFetchAllowPrivate: boolean;
  /** HEDGE_AFTER_MS: the hedge delay of models without their own `hedge_after_ms`; 0 or absent: no hedge. */
  hedgeAfterMs?: number;
  /** Who owns each Responses API id relayed, so nobody continues or reads another user's conversation. */
  responseOwners: ResponseOwners;
  /** OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set; absent or null: no tracing, nothing loaded. */
  tracer?: CallTracer | null;
  /** One line per call on standard error, when ACCESS_LOG=true; absent or null otherwise. */
  accessLog?: AccessLog | null;
}

/** The client's headers for a call's trace: only when tracing is on, so a call without it keeps nothing more. */
export function clientTraceHeaders(deps: RelayDeps, headers: IncomingHttpHeaders): IncomingHttpHeaders | undefined {
  return deps.tracer ? headers : undefined;
}

/**
 * The trace context of a WebSocket's upgrade request, kept for the calls made over the socket (a span per
 * response, each a child of the client's `traceparent`): only those two headers, and only when tracing is on.
 */
export function upgradeTraceHeaders(deps: RelayDeps, headers: IncomingHttpHeaders): IncomingHttpHeaders | undefined {
  if (!deps.tracer) return undefined;
  const kept: IncomingHttpHeaders = {};
  if (typeof headers.traceparent === 'string') kept.traceparent = headers.traceparent;
  if (typeof headers.tracestate === 'string') kept.tracestate = headers.tracestate;
  return kept;
}
