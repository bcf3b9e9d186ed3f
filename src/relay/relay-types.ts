// The relay's input and output, free of any HTTP framework: routes build a RelayCall and send a RelayResult.
import type { CachedKey } from '../accounts/key-index.ts';
import type { WireFormat } from '../providers/provider-definition.ts';
import type { Reservation } from '../metering/accounting.ts';
import type { ModelPricing } from '../metering/pricing.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';

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

export const newCallMeter = (): CallMeter => ({ reservation: null, pricing: undefined, attempts: [] });

export type RelayResult =
  | { kind: 'buffer'; status: number; headers: Record<string, string>; body: Buffer | string; costMicros?: () => number | null }
  /** Written to the client chunk by chunk as the generator yields, with backpressure. */
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: AsyncGenerator<string | Buffer>; costMicros?: () => number | null };
