// What a model costs: its token prices, long-context tiers and the other price kinds (the types alone, so the
// pricing modules can share them without importing one another).

/** The prices of tokens by kind, per million tokens; a tier of a long prompt states them again. */
export interface TokenPrices {
  inputPerMtok?: number;
  cachedInputPerMtok?: number;
  cacheWritePerMtok?: number;
  /** Tokens written to a one-hour cache (Anthropic's `ttl: "1h"`); unset: the (five-minute) cache-write price. */
  cacheWrite1hPerMtok?: number;
  outputPerMtok?: number;
  reasoningPerMtok?: number;
}

/** The token prices of a call whose prompt (cached and cache-write tokens included) is longer than a threshold. */
export interface PriceTier extends TokenPrices {
  abovePromptTokens: number;
}

export interface ModelPricing extends TokenPrices {
  /** Long-context prices, ascending by threshold: the last tier the prompt is above replaces the prices it names. */
  tiers?: PriceTier[];
  perRequest?: number;
  /** Per image, keyed "size/quality", "size" or "*" (most specific wins). */
  perImage?: Record<string, number>;
  perAudioMinute?: number;
  perMillionChars?: number;
  perSearch?: number;
}
