// Settles a finished call: prices it, turns its reservation into the real charge, counts its tokens
// against rate limits, and queues its usage-log row and charge to be written behind the response.
import type { Logger } from 'pino';
import type { CachedKey } from '../accounts/key-index.ts';
import { computeCostMicros, type ModelPricing } from './pricing.ts';
import type { Usage } from './usage.ts';
import type { Accounting, Reservation } from './accounting.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { rateLimitSubjects, hasTokenLimit } from './admission.ts';
import { meteringEntryStore, type MeteringEntryBatch, type QueuedMeteringEntry } from './metering-entry-batch.ts';
import type { MeteringBatchWriter } from './metering-batch-writer.ts';
import { createWriteBehindQueue } from './write-behind-queue.ts';
import { MeteringWriteInterrupted } from './isolate-refused-rows.ts';
import { boundedMeteringEntry } from './safe-metering-entry.ts';
import { createMeteringMetrics } from './metering-metrics.ts';
import type { Registry } from 'prom-client';
import { billedQuantities } from './log-cost.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';

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
  /** The gateway's own time in ms (the overhead header's); absent or null when it cannot be told apart. */
  overheadMs?: number | null;
  ttftMs: number | null;
  usage: Usage;
  error: string | null;
  /** The gateway error code (GW_ERR_…) of a failed call, when one is known. */
  errorCode?: GatewayErrorCode | null;
  attempts: readonly unknown[] | null;
  /** Taken at admission; settled here. Null for free models. */
  reservation: Reservation | null;
  pricing: ModelPricing | undefined;
}

export interface UsageRecorder {
  /** Settles and queues the call; returns its cost in micro-USD. */
  record(call: CallRecord): number;
  /**
   * True while the unwritten backlog is at its bound (METERING_QUEUE_LIMIT): admission refuses new calls
   * with 503 and Retry-After until it drains, so memory stays bounded and no charge is dropped.
   */
  readonly backlogFull: boolean;
  /** Resolves once the writer can write (awaited before the gateway listens). */
  start(): Promise<void>;
  /** Counts a call refused because the backlog was full. */
  noteRefusal(): void;
  flush(): Promise<void>;
  /**
   * A committed stream begins, or has been recorded (its generator's finally). Counted so that close()
   * can wait for the streams the shutdown cut: each records itself a few turns after its socket closed,
   * once its upstream's abort comes back, and that is after stop() has reached close().
   */
  streamOpened(): void;
  streamRecorded(): void;
  /** Waits (bounded) for open streams to be recorded, then writes what is queued and closes. */
  close(): Promise<void>;
}

interface UsageRecorderDeps {
  writer: MeteringBatchWriter;
  logger: Logger;
  accounting: Accounting;
  rateLimiter: RateLimiter;
  flushIntervalMs: number;
  /** Unwritten entries at which new calls are refused; default 20 000. */
  queueLimit?: number;
  /** Where the metering metrics are registered (the gateway's /metrics registry). */
  metricsRegistry?: Registry;
}

const DEFAULT_METERING_QUEUE_LIMIT = 20_000;
/** Most entries per transaction: large enough that a backlog drains in few round trips. */
const MAX_BATCH = 1_000;

/** Longest close() waits for cut streams to record themselves (they need only a few turns of the loop). */
const OPEN_STREAMS_WAIT_MS = 2_000;

export function createUsageRecorder(deps: UsageRecorderDeps): UsageRecorder {
  const limit = deps.queueLimit ?? DEFAULT_METERING_QUEUE_LIMIT;
  let openStreams = 0;
  /** Set while close() waits for the open streams to be recorded. */
  let streamsRecorded: (() => void) | null = null;
  const metrics = createMeteringMetrics(deps.metricsRegistry, () => queue.pending);
  let dropping = false;
  // Entries are queued encoded, with the reservation each settled (metering-entry-batch.ts says why).
  const queue = createWriteBehindQueue<QueuedMeteringEntry, MeteringEntryBatch>({
    intervalMs: deps.flushIntervalMs,
    maxBatch: MAX_BATCH,
    store: meteringEntryStore,
    write: async (batch, retry) => {
      const stopTimer = metrics.writeSeconds.startTimer();
      let outcome = { written: 0, deadLettered: 0 };
      // Accounting learns which charges the batch makes durable.
      await deps.accounting.writeCharges(batch.durableCharges(), async () => {
        outcome = await deps.writer.writeEncoded(batch.encode(), { retry });
      });
      stopTimer();
      if (outcome.deadLettered > 0) {
        metrics.deadLetters.inc(outcome.deadLettered);
        deps.logger.error({ deadLettered: outcome.deadLettered, written: outcome.written }, 'the database refused metering entries; they are in metering_dead_letters with the error');
      }
    },
    doneBeforeFailure: (error) => (error instanceof MeteringWriteInterrupted ? error.done : 0),
    // The rows not done are kept and written again with the next flush; each failure is logged with its totals.
    onError: (error, kept) => {
      metrics.writeFailures.inc();
      deps.logger.error({ err: error, calls: kept.count, chargeMicros: kept.chargeMicros() }, 'metering batch could not be written; it will be retried');
    },
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
      if (tokens > 0 && hasTokenLimit(call.key)) {
        deps.rateLimiter.addTokens(rateLimitSubjects(call.key), tokens, Date.now()).catch((error: unknown) => deps.logger.warn({ err: error }, 'counting tokens for rate limits failed'));
      }
      // Beyond twice the bound (admission already refuses new calls at the bound) only rows that carry no
      // charge may be dropped, counted; a charge is always kept.
      if (cost === 0 && queue.pending >= 2 * limit) {
        metrics.dropped.inc();
        if (!dropping) deps.logger.error({ pending: queue.pending }, 'metering backlog at twice its bound: dropping usage rows of uncharged calls');
        dropping = true;
        return cost;
      }
      dropping = false;
      const billed = billedQuantities(call.usage, ok, call.key.groupRatioPpm);
      const entry = boundedMeteringEntry({
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
          overhead_us: call.overheadMs === undefined || call.overheadMs === null ? null : Math.round(call.overheadMs * 1000),
          input_tokens: call.usage.inputTokens,
          cached_tokens: call.usage.cachedInputTokens,
          output_tokens: call.usage.outputTokens,
          reasoning_tokens: call.usage.reasoningTokens,
          cost_micros: cost,
          error: call.error,
          // Listed, not spread: the columns after a spread in a literal are each defined by a runtime call.
          cache_write_tokens: billed.cache_write_tokens,
          cache_write_1h_tokens: billed.cache_write_1h_tokens,
          image_count: billed.image_count,
          image_size: billed.image_size,
          image_quality: billed.image_quality,
          audio_ms: billed.audio_ms,
          characters: billed.characters,
          searches: billed.searches,
          requests: billed.requests,
          ratio_ppm: billed.ratio_ppm,
          tokens_counted: billed.tokens_counted,
          error_code: call.errorCode ?? null,
          attempts_json: call.attempts ? JSON.stringify(call.attempts) : null,
        },
      });
      queue.enqueue({ entry, reservation: call.reservation });
      deps.writer.prepare();
      return cost;
    },
    get backlogFull() {
      return queue.pending >= limit;
    },
    start: () => deps.writer.start(),
    noteRefusal() {
      metrics.refusedCalls.inc();
    },
    flush: () => queue.flush(),
    streamOpened() {
      openStreams++;
    },
    streamRecorded() {
      openStreams--;
      if (openStreams === 0) streamsRecorded?.();
    },
    async close() {
      if (openStreams > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, OPEN_STREAMS_WAIT_MS);
          streamsRecorded = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (openStreams > 0) deps.logger.error({ openStreams }, 'streams still unrecorded when the usage recorder closed; their calls are not logged');
      }
      await queue.close();
      await deps.writer.close();
    },
  };
}
