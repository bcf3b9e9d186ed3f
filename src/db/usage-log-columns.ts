// The usage_logs columns a metering write fills, and the defaults of those an entry may leave out. Kept
// apart from the repository (which needs Kysely) so the SQLite metering worker can build its insert from the
// same list without loading Kysely (src/metering/sqlite-metering-store.ts).
import type { NewUsageLog } from './schema.ts';

export const USAGE_LOG_COLUMNS = [
  'created_at', 'request_id', 'user_id', 'key_id', 'key_name', 'model', 'upstream_model', 'channel_id',
  'inbound_format', 'endpoint', 'stream', 'status', 'latency_ms', 'ttft_ms', 'input_tokens', 'cached_tokens',
  'output_tokens', 'reasoning_tokens', 'cost_micros', 'error', 'attempts_json',
  // Migration 0006: the other billed quantities, the ratio, whether tokens were counted, the error code.
  'cache_write_tokens', 'image_count', 'image_size', 'image_quality', 'audio_ms', 'characters', 'searches',
  'requests', 'ratio_ppm', 'tokens_counted', 'error_code',
  // Migration 0012: one-hour cache writes.
  'cache_write_1h_tokens',
  // Migration 0014: the gateway's own time.
  'overhead_us',
] as const satisfies readonly (keyof NewUsageLog)[];

/** Defaults for the columns the schema lets an insert leave out. */
export const USAGE_LOG_DEFAULTS: Partial<Record<(typeof USAGE_LOG_COLUMNS)[number], unknown>> = {
  stream: 0, input_tokens: 0, cached_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cost_micros: 0,
  cache_write_tokens: 0, image_count: 0, audio_ms: 0, characters: 0, searches: 0, requests: 0, ratio_ppm: 1_000_000, tokens_counted: 0,
  cache_write_1h_tokens: 0,
};
