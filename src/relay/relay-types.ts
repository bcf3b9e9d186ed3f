// The relay's input and output, free of any HTTP framework: routes build a RelayCall and send a RelayResult.
import type { CachedKey } from '../accounts/key-index.ts';
import type { WireFormat } from '../providers/provider-definition.ts';
import type { Reservation } from '../metering/accounting.ts';
import type { ModelPricing } from '../metering/pricing.ts';

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
  /** Filled at admission; `recorded` makes sure a call is logged and charged once. */
  meter: CallMeter;
}

export interface CallMeter {
  reservation: Reservation | null;
  /** Prices of the model that answered (a fallback model may answer). */
  pricing: ModelPricing | undefined;
  recorded: boolean;
  /** Every upstream attempt, failed or not, for the usage log. */
  attempts: AttemptRecord[];
  /** What the call was charged, in micro-USD, once it is recorded. */
  costMicros?: number;
}

export interface AttemptRecord {
  model: string;
  channel: string;
  status: number | null;
  outcome: string;
  error: string | null;
  /** The gateway error code of a failed attempt (GW_ERR_…). */
  code?: string;
  ms: number;
}

export const newCallMeter = (): CallMeter => ({ reservation: null, pricing: undefined, recorded: false, attempts: [] });

export type RelayResult =
  | { kind: 'buffer'; status: number; headers: Record<string, string>; body: Buffer | string; costMicros?: () => number | null }
  /** Written to the client chunk by chunk as the generator yields, with backpressure. */
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: AsyncGenerator<string | Buffer>; costMicros?: () => number | null };
