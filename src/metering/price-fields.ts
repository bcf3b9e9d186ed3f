// The token prices by name: the config file's (USD per million tokens, snake_case) and the stored
// ModelPricing's (micro-USD per million tokens). One list, so the config reader, the admin's view and the
// explanation of a charge name the same prices the same way.
import type { ModelPricing } from './model-pricing.ts';

type TokenPriceKey = 'inputPerMtok' | 'cachedInputPerMtok' | 'cacheWritePerMtok' | 'cacheWrite1hPerMtok' | 'outputPerMtok' | 'reasoningPerMtok';

export const TOKEN_PRICE_FIELDS = [
  { config: 'input_per_mtok', key: 'inputPerMtok' },
  { config: 'cached_input_per_mtok', key: 'cachedInputPerMtok' },
  { config: 'cache_write_per_mtok', key: 'cacheWritePerMtok' },
  { config: 'cache_write_1h_per_mtok', key: 'cacheWrite1hPerMtok' },
  { config: 'output_per_mtok', key: 'outputPerMtok' },
  { config: 'reasoning_per_mtok', key: 'reasoningPerMtok' },
] as const satisfies readonly { config: string; key: TokenPriceKey & keyof ModelPricing }[];

export type TokenPriceConfigName = (typeof TOKEN_PRICE_FIELDS)[number]['config'];
