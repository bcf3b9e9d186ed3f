// Turns a finished call into a usage-log row with its cost, written behind the response in batches.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseSchema, NewUsageLog } from '../db/schema.ts';
import type { DatabaseEngine } from '../db/database.ts';
import { insertUsageLogs } from './usage-log-writer.ts';
import type { CachedKey } from '../accounts/key-index.ts';
import { computeCostMicros, type ModelPricing } from './pricing.ts';
import type { Usage } from './usage.ts';
import { createWriteBehindQueue, type WriteBehindQueue } from './write-behind-queue.ts';

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
  attempts: unknown[] | null;
}

export interface UsageRecorder {
  /** Prices the call and queues its log row; returns the cost in micro-USD. */
  record(call: CallRecord, pricing: ModelPricing | undefined): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageRecorder(db: Kysely<DatabaseSchema>, engine: DatabaseEngine, logger: Logger, flushIntervalMs: number): UsageRecorder {
  const queue: WriteBehindQueue<NewUsageLog> = createWriteBehindQueue({
    intervalMs: flushIntervalMs,
    maxBatch: 500,
    write: (rows) => insertUsageLogs(db, engine, rows),
    onError: (error, rows) => logger.error({ err: error, rows: rows.length }, 'usage log batch could not be written'),
  });
  return {
    record(call, pricing) {
      // Only successful calls cost anything; failed attempts are logged, not billed.
      const ok = call.status >= 200 && call.status < 300;
      const cost = ok && pricing ? computeCostMicros(pricing, call.usage, call.key.groupRatioPpm) : 0;
      queue.enqueue({
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
        attempts_json: call.attempts ? JSON.stringify(call.attempts) : null,
      });
      return cost;
    },
    flush: () => queue.flush(),
    close: () => queue.close(),
  };
}
