// What the relay tells tracing about a call, without knowing OpenTelemetry: the relay holds a CallTracer
// only when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces variant) is set (load-tracing.ts), and otherwise does
// no more than check that it has none. The implementation (otel-call-tracer.ts) is loaded only then.
import type { IncomingHttpHeaders } from 'node:http';
import type { RoutedChannel } from '../routing/routed-channel.ts';
import type { Usage } from '../metering/usage.ts';
import type { AnswerReading } from '../hub/hub-format.ts';

/** How an upstream attempt came about, as the attempt span's `gateway.attempt.kind` says. */
export type AttemptKind =
  /** The call's first attempt. */
  | 'first'
  /** The same route again, after a transient failure or a short Retry-After. */
  | 'retry'
  /** Another channel of the requested model. */
  | 'failover'
  /** A channel of a fallback model. */
  | 'fallback'
  /** Started beside an attempt still without its first byte (HEDGE_AFTER_MS). */
  | 'hedge'
  /** A broken stream continued on another channel with the delivered text as an assistant prefill. */
  | 'continuation'
  /** A broken stream restarted on another channel, its repeated part held back. */
  | 'restart';

/** What a call span starts from. */
export interface TracedCall {
  requestId: string;
  /** The route: `/v1/chat/completions`, `/v1beta/models/{model}:generateContent`. */
  endpoint: string;
  /** The client's wire format (its reader gives the prompt when content capture is on). */
  inboundFormat: string;
  model: string;
  stream: boolean;
  keyName: string;
  groupName: string;
  /** The client's request headers, for its `traceparent` and `tracestate`. */
  headers: IncomingHttpHeaders | undefined;
  /** The client's body, read only when content capture is on. */
  body: Record<string, unknown>;
  /** performance.now() when the request arrived. */
  startedAt: number;
}

/** How a call ended, as its usage row records it. */
export interface TracedCallEnd {
  status: number;
  /** The public id of the model that answered (a fallback may answer). */
  model: string;
  upstreamModel: string | null;
  usage: Usage;
  costMicros: number;
  error: string | null;
  errorCode: string | null;
  ttftMs: number | null;
  overheadMs: number;
}

export interface CallTracer {
  /** Starts the call's span, a child of the client's `traceparent` when it sent one. */
  startCall(call: TracedCall): CallTrace;
  /** Sends the spans still buffered (shutdown). */
  shutdown(): Promise<void>;
}

export interface CallTrace {
  /** Admission ran from `startedAt` until now; `error` when it refused the call. */
  admission(startedAt: number, error: unknown): void;
  /** A child span for one upstream attempt, started now; its context goes upstream as `traceparent`. */
  attempt(kind: AttemptKind, channel: RoutedChannel, model: string, upstreamModel: string): AttemptTrace;
  /** The attempt that answers the client: its span stays open until the call ends, with the answer's usage. */
  serving(attempt: AttemptTrace): void;
  /** The serving attempt's stream broke midway (another may continue it). */
  servingBroke(error: unknown): void;
  /** How the answer the client got ended, and its text: finish reasons on the span, the text when content capture is on. */
  answered(reading: AnswerReading): void;
  /** The call is recorded: its span ends (and the serving attempt's). */
  end(outcome: TracedCallEnd): void;
}

export interface AttemptTrace {
  /** The W3C `traceparent` header value naming this attempt's span. */
  readonly traceparent: string;
  /** The attempt failed: its span ends with the upstream status (null without one) and the error. */
  failed(status: number | null, error: unknown): void;
  /** The attempt was stopped unanswered (a hedge won elsewhere, the call was decided). */
  cancelled(): void;
}
