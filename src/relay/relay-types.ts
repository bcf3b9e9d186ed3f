// The relay's input and output, free of any HTTP framework: routes build a RelayCall and send a RelayResult.
import type { CachedKey } from '../accounts/key-index.ts';
import type { WireFormat } from '../providers/provider-definition.ts';
import type { Reservation } from '../metering/accounting.ts';
import type { ModelPricing } from '../metering/pricing.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { CallTrace } from '../telemetry/call-trace.ts';
import type { ResponsesTurnSender } from '../upstream/responses-upstream-sockets.ts';

export interface RelayCall {
  requestId: string;
  key: CachedKey;
  /** The route, for logs and metrics: `/v1/chat/completions`. */
  endpoint: string;
  inboundFormat: WireFormat;
  model: string;
  stream: boolean;
  body: Record<string, unknown>;
  /** The client's bytes, forwarded as they are when nothing needs changing. */
  rawBody: Buffer;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** Headers from the client that a same-format hop forwards (anthropic-version, anthropic-beta, …). */
  forwardHeaders: Record<string, string>;
  /** What admission decided, and the log of attempt outcomes. The call's charge is not kept here: recording returns it. */
  meter: CallMeter;
  /** The client's request headers, set only when tracing is on (its `traceparent`): see clientTraceHeaders. */
  traceHeaders?: IncomingHttpHeaders | undefined;
  /** The call's trace, when tracing is on (set by relayEndpoint; src/telemetry/call-trace.ts). */
  trace?: CallTrace | null;
  /**
   * A turn of the gateway's Responses WebSocket mode: the client connection's upstream sockets, which a
   * channel that speaks the mode (`responses_websocket`) is called through instead of a streamed POST.
   */
  responsesSockets?: ResponsesTurnSender | undefined;
}

export interface CallMeter {
  /** Written once, at admission. */
  reservation: Reservation | null;
  /** The requested model's prices at admission; a fallback model that answers is priced as itself (record-call.ts). */
  pricing: ModelPricing | undefined;
  /**
   * The outcome of every upstream attempt, in order: each an immutable record, appended once by
   * logAttempt (attempt-log.ts) when it settles. The usage record is derived from them and the answer.
   */
  readonly attempts: readonly AttemptRecord[];
  /**
   * Milliseconds spent waiting on upstreams before the answer was committed (or the call failed): the union
   * of the settled attempts' waits, from sending to their answer (upstream-wait.ts). Written by the attempt
   * loop; the gateway's own time (overhead) is the rest of the call's time.
   */
  upstreamWaitMs: number;
}

/** One attempt's outcome, as the usage log keeps it. Never changed once made. */
export interface AttemptRecord {
  readonly model: string;
  readonly channel: string;
  readonly status: number | null;
  readonly outcome: string;
  readonly error: string | null;
  /** The gateway error code of a failed attempt (GW_ERR_…). */
  readonly code?: GatewayErrorCode;
  readonly ms: number;
}

export const newCallMeter = (): CallMeter => ({ reservation: null, pricing: undefined, attempts: [], upstreamWaitMs: 0 });

/**
 * `overheadMs`: the gateway's own time until the answer was ready to write (its whole body, or a stream's
 * first event), the upstream waits left out; sent as `x-gateway-overhead-ms`.
 */
export type RelayResult =
  | { kind: 'buffer'; status: number; headers: Record<string, string>; body: Buffer | string; costMicros?: () => number | null; overheadMs?: number }
  /** Written to the client chunk by chunk as the generator yields, with backpressure. */
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: AsyncGenerator<string | Buffer>; costMicros?: () => number | null; overheadMs?: number };
