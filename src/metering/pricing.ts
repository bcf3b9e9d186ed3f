// Prices and the cost of a call, in integer micro-USD.
// Prices are stored per million tokens (micro-USD per Mtok) so that sub-cent token prices stay integers.
// Cost = Σ(tokens × price per Mtok) × group ratio, divided out and rounded half up exactly once, in BigInt
// so that no intermediate product loses precision.
import type { Usage } from './usage.ts';

export interface ModelPricing {
  inputPerMtok?: number;
  cachedInputPerMtok?: number;
  cacheWritePerMtok?: number;
  outputPerMtok?: number;
  reasoningPerMtok?: number;
  perRequest?: number;
  /** Per image, keyed "size/quality", "size" or "*" (most specific wins). */
  perImage?: Record<string, number>;
  perAudioMinute?: number;
  perMillionChars?: number;
  perSearch?: number;
}

export const MICROS_PER_USD = 1_000_000;
const PPM = 1_000_000n;
const TOKENS_PER_MTOK = 1_000_000n;

/** USD as written in a config file → integer micro-USD. */
export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

// Every term is scaled to a common denominator (per million × per minute in ms) so that token, character,
// audio and per-unit prices add up exactly before the one rounding.
const MS_PER_MINUTE = 60_000n;
const DENOMINATOR = TOKENS_PER_MTOK * MS_PER_MINUTE;

export function computeCostMicros(pricing: ModelPricing, usage: Usage, ratioPpm: number): number {
  const input = pricing.inputPerMtok ?? 0;
  const cachedPrice = pricing.cachedInputPerMtok ?? input;
  const cacheWritePrice = pricing.cacheWritePerMtok ?? input;
  const output = pricing.outputPerMtok ?? 0;
  const reasoningPrice = pricing.reasoningPerMtok ?? output;
  const plainInput = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const plainOutput = Math.max(0, usage.outputTokens - usage.reasoningTokens);

  const perMillion =
    BigInt(plainInput) * BigInt(input) +
    BigInt(usage.cachedInputTokens) * BigInt(cachedPrice) +
    BigInt(usage.cacheWriteTokens) * BigInt(cacheWritePrice) +
    BigInt(plainOutput) * BigInt(output) +
    BigInt(usage.reasoningTokens) * BigInt(reasoningPrice) +
    BigInt(usage.characters ?? 0) * BigInt(pricing.perMillionChars ?? 0);
  const perUnit =
    BigInt(usage.requests ?? 1) * BigInt(pricing.perRequest ?? 0) +
    BigInt(usage.searches ?? 0) * BigInt(pricing.perSearch ?? 0) +
    (usage.images ? BigInt(usage.images.count) * BigInt(imagePrice(pricing, usage.images.size, usage.images.quality)) : 0n);
  const perMinute = BigInt(Math.round(usage.audioMs ?? 0)) * BigInt(pricing.perAudioMinute ?? 0);

  const total = perMillion * MS_PER_MINUTE + perUnit * DENOMINATOR + perMinute * TOKENS_PER_MTOK;
  const divisor = DENOMINATOR * PPM;
  return Number((total * BigInt(ratioPpm) + divisor / 2n) / divisor);
}

export function imagePrice(pricing: ModelPricing, size: string, quality: string): number {
  const table = pricing.perImage ?? {};
  return table[`${size}/${quality}`] ?? table[size] ?? table['*'] ?? 0;
}
