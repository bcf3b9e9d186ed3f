// Settles a finished call: prices it, turns its reservation into the real charge, counts its tokens
// against rate limits, and queues its usage-log row and charge to be written behind the response.
import type { Logger } from 'pino';
import type { CachedKey } from '../accounts/key-index.ts';
import { computeCostMicros, type ModelPricing } from './pricing.ts';
import type { Usage } from './usage.ts';
import type { Accounting, Reservation } from './accounting.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { rateLimitSubjects } from './admission.ts';
import type { MeteringEntry } from './metering-writer.ts';
import type { MeteringBatchWriter } from './metering-batch-writer.ts';
import { createWriteBehindQueue } from './write-behind-queue.ts';
import { billedQuantities } from './log-cost.ts';

export interface CallRecord {
  requestId: string;
  key: CachedKey;
  model: string;
  upstreamModel: string | null;
  channelId: number | null;
  inboundFormat: string;
  endpoint: string;
  stream: boolean;
  status: number;
  latencyMs: number;
  ttftMs: number | null;
  usage: Usage;
  error: string | null;
  /** The gateway error code (GW_ERR_…) of a failed call, when one is known. */
  errorCode?: string | null;
  attempts: unknown[] | null;
  /** Taken at admission; settled here. Null for free models. */
  reservation: Reservation | null;
  pricing: ModelPricing | undefined;
}

export interface UsageRecorder {
  /** Settles and queues the call; returns its cost in micro-USD. */
  record(call: CallRecord): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface UsageRecorderDeps {
  writer: MeteringBatchWriter;
  logger: Logger;
  accounting: Accounting;
  rateLimiter: RateLimiter;
  flushIntervalMs: number;
}

export function createUsageRecorder(deps: UsageRecorderDeps): UsageRecorder {
  const queue = createWriteBehindQueue<MeteringEntry>({
    intervalMs: deps.flushIntervalMs,
    maxBatch: 500,
    write: (entries) => deps.writer.write(entries),
    // A failed batch is kept and written again with the next flush; each failure is logged with its totals.
    onError: (error, entries) => deps.logger.error({ err: error, calls: entries.length, chargeMicros: entries.reduce((sum, e) => sum + e.chargeMicros, 0) }, 'metering batch could not be written; it will be retried'),
  });
  return {
    record(call) {
      // Only successful calls cost anything; failed attempts are logged, not billed.
      const ok = call.status >= 200 && call.status < 300;
      const cost = ok && call.pricing ? computeCostMicros(call.pricing, call.usage, call.key.groupRatioPpm) : 0;
      // Settling must never throw into the response path; a failure (Redis away) is logged with the amounts.
      if (call.reservation) {
        deps.accounting.settle(call.reservation, cost).catch((error: unknown) => deps.logger.error({ err: error, requestId: call.requestId, costMicros: cost, reservedMicros: call.reservation?.amountMicros }, 'settling a call failed'));
      }
      const tokens = call.usage.inputTokens + call.usage.outputTokens;
      if (tokens > 0) {
        deps.rateLimiter.addTokens(rateLimitSubjects(call.key), tokens, Date.now()).catch((error: unknown) => deps.logger.warn({ err: error }, 'counting tokens for rate limits failed'));
      }
      queue.enqueue({
        chargeMicros: cost,
        log: {
          created_at: Date.now(),
          request_id: call.requestId,
          user_id: call.key.userId,
          key_id: call.key.id,
          key_name: call.key.name,
          model: call.model,
          upstream_model: call.upstreamModel,
          channel_id: call.channelId,
          inbound_format: call.inboundFormat,
          endpoint: call.endpoint,
          stream: call.stream ? 1 : 0,
          status: call.status,
          latency_ms: Math.round(call.latencyMs),
          ttft_ms: call.ttftMs === null ? null : Math.round(call.ttftMs),
          input_tokens: call.usage.inputTokens,
          cached_tokens: call.usage.cachedInputTokens,
          output_tokens: call.usage.outputTokens,
          reasoning_tokens: call.usage.reasoningTokens,
          cost_micros: cost,
          error: call.error,
          ...billedQuantities(call.usage, ok, call.key.groupRatioPpm),
          error_code: call.errorCode ?? null,
          attempts_json: call.attempts ? JSON.stringify(call.attempts) : null,
        },
      });
      return cost;
    },
    flush: () => queue.flush(),
    async close() {
      await queue.close();
      await deps.writer.close();
    },
  };
}
