// A usage-log row holds every quantity its cost came from, so any row's cost can be recomputed from the row
// and the price in force: what the recorder writes (billedQuantities) and what an audit reads back
// (usageOfLogRow, costOfLogRow) are the two halves of one mapping, kept side by side here.
import type { UsageLogRow } from '../db/schema.ts';
import { computeCostMicros, oneHourCacheWrites, type ModelPricing } from './pricing.ts';
import type { Usage } from './usage.ts';

/** The usage-log columns beyond the four token columns of migration 0001. */
export interface BilledQuantityColumns {
  cache_write_tokens: number;
  cache_write_1h_tokens: number;
  image_count: number;
  image_size: string | null;
  image_quality: string | null;
  audio_ms: number;
  characters: number;
  searches: number;
  requests: number;
  ratio_ppm: number;
  tokens_counted: number;
}

export function billedQuantities(usage: Usage, billed: boolean, ratioPpm: number): BilledQuantityColumns {
  return {
    cache_write_tokens: usage.cacheWriteTokens,
    cache_write_1h_tokens: oneHourCacheWrites(usage),
    image_count: usage.images?.count ?? 0,
    image_size: usage.images?.size ?? null,
    image_quality: usage.images?.quality ?? null,
    audio_ms: Math.round(usage.audioMs ?? 0),
    characters: usage.characters ?? 0,
    searches: usage.searches ?? 0,
    requests: billed ? 1 : 0,
    ratio_ppm: ratioPpm,
    tokens_counted: usage.tokensCounted ? 1 : 0,
  };
}

export type LogQuantities = Pick<UsageLogRow, 'input_tokens' | 'cached_tokens' | 'output_tokens' | 'reasoning_tokens'> & BilledQuantityColumns;

/** The usage a row was billed by, read back from its columns. */
export function usageOfLogRow(row: LogQuantities): Usage {
  const usage: Usage = {
    inputTokens: Number(row.input_tokens),
    cachedInputTokens: Number(row.cached_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    cacheWrite1hTokens: Number(row.cache_write_1h_tokens),
    outputTokens: Number(row.output_tokens),
    reasoningTokens: Number(row.reasoning_tokens),
    audioMs: Number(row.audio_ms),
    characters: Number(row.characters),
    searches: Number(row.searches),
    requests: Number(row.requests),
  };
  if (Number(row.image_count) > 0) usage.images = { count: Number(row.image_count), size: row.image_size ?? '', quality: row.image_quality ?? '' };
  return usage;
}

/** The cost of a row under `pricing` (the model's price in force; undefined for a free model). */
export function costOfLogRow(row: LogQuantities, pricing: ModelPricing | undefined): number {
  if (!pricing || Number(row.requests) === 0) return 0;
  return computeCostMicros(pricing, usageOfLogRow(row), Number(row.ratio_ppm));
}
