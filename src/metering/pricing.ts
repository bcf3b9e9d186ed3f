// Prices and the cost of a call, in integer micro-USD.
// Prices are stored per million tokens (micro-USD per Mtok) so that sub-cent token prices stay integers.
// Cost = Σ(tokens × price per Mtok) × group ratio, divided out and rounded half up exactly once, in BigInt
// so that no intermediate product loses precision.
import type { Usage } from './usage.ts';
import { pricesForPrompt } from './price-tiers.ts';

export type { ModelPricing, TokenPrices } from './model-pricing.ts';
import type { ModelPricing } from './model-pricing.ts';

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
  return costInSafeIntegers(pricing, usage, ratioPpm) ?? costInBigInts(pricing, usage, ratioPpm);
}

const TWELVE_ZEROS = 1_000_000_000_000; // per million tokens × ppm
const HALF_TWELVE_ZEROS = 500_000_000_000;

/** a × b when the exact product is a safe integer, else null (a rounded product past 2^53 is never safe). */
const safeProduct = (a: number, b: number): number | null => {
  const product = a * b;
  return Number.isSafeInteger(product) ? product : null;
};

/**
 * The same cost with plain numbers, for the common call (no audio; all quantities, prices and the
 * products and sums below 2^53), or null, and the BigInt arithmetic decides. Without audio the common
 * denominator's per-minute factor cancels exactly: cost = ⌊(A × ratio + 10^12 / 2) / 10^12⌋ with
 * A = Σ tokens × price per Mtok + units × price × 10^6. Every step is checked to be an exact safe integer,
 * so the result is the BigInt one, bit for bit (test/metering/cost-arithmetic.test.ts compares them);
 * it spares each call some thirty heap-allocated BigInts (twice a call: admission and the usage record).
 */
export function costInSafeIntegers(listed: ModelPricing, usage: Usage, ratioPpm: number): number | null {
  if ((usage.audioMs ?? 0) !== 0 || usage.images) return null;
  const pricing = pricesForPrompt(listed, usage.inputTokens);
  const input = pricing.inputPerMtok ?? 0;
  const output = pricing.outputPerMtok ?? 0;
  // Term by term, not over an array of the terms: this runs three times a call (admission, the answer's
  // cost header, the usage record), and the arrays were ~0.5 KB of the call's garbage (issue 16).
  // The two differences are clamped at zero as in the BigInt arithmetic.
  let perMillion = 0;
  perMillion = addTerm(perMillion, Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens), input);
  perMillion = addTerm(perMillion, usage.cachedInputTokens, pricing.cachedInputPerMtok ?? input);
  const cacheWritePrice = pricing.cacheWritePerMtok ?? input;
  const oneHourWrites = oneHourCacheWrites(usage);
  perMillion = addTerm(perMillion, usage.cacheWriteTokens - oneHourWrites, cacheWritePrice);
  perMillion = addTerm(perMillion, oneHourWrites, pricing.cacheWrite1hPerMtok ?? cacheWritePrice);
  perMillion = addTerm(perMillion, Math.max(0, usage.outputTokens - usage.reasoningTokens), output);
  perMillion = addTerm(perMillion, usage.reasoningTokens, pricing.reasoningPerMtok ?? output);
  perMillion = addTerm(perMillion, usage.characters ?? 0, pricing.perMillionChars ?? 0);
  let perUnit = 0;
  perUnit = addTerm(perUnit, usage.requests ?? 1, pricing.perRequest ?? 0);
  perUnit = addTerm(perUnit, usage.searches ?? 0, pricing.perSearch ?? 0);
  if (Number.isNaN(perMillion) || Number.isNaN(perUnit)) return null;
  const unitsPerMillion = safeProduct(perUnit, 1_000_000);
  if (unitsPerMillion === null || !Number.isSafeInteger(ratioPpm) || ratioPpm < 0) return null;
  const sum = perMillion + unitsPerMillion;
  if (!Number.isSafeInteger(sum)) return null;
  const scaled = safeProduct(sum, ratioPpm);
  if (scaled === null) return null;
  const numerator = scaled + HALF_TWELVE_ZEROS;
  if (!Number.isSafeInteger(numerator)) return null;
  // Exact integer division: the quotient is below 2^53 / 10^12 ≈ 9,007, where doubles are 2^-39 apart or
  // closer; a quotient that is not a whole number lies at least 10^-12 from one, more than half that
  // spacing, so the correctly rounded division never lands on the next whole number and floor is exact.
  return Math.floor(numerator / TWELVE_ZEROS);
}

/**
 * sum + quantity × price when every value is a non-negative safe integer and so are the product and the
 * sum; else NaN, which every later step carries (the caller then leaves the cost to the BigInt arithmetic).
 */
function addTerm(sum: number, quantity: number, price: number): number {
  if (!Number.isSafeInteger(quantity) || !Number.isSafeInteger(price) || quantity < 0 || price < 0) return Number.NaN;
  const product = quantity * price;
  const total = sum + product;
  return Number.isSafeInteger(product) && Number.isSafeInteger(total) ? total : Number.NaN;
}

/** The reference: every term scaled to the common denominator in BigInt, rounded half up once. */
export function costInBigInts(listed: ModelPricing, usage: Usage, ratioPpm: number): number {
  const pricing = pricesForPrompt(listed, usage.inputTokens);
  const input = pricing.inputPerMtok ?? 0;
  const cachedPrice = pricing.cachedInputPerMtok ?? input;
  const cacheWritePrice = pricing.cacheWritePerMtok ?? input;
  const cacheWrite1hPrice = pricing.cacheWrite1hPerMtok ?? cacheWritePrice;
  const oneHourWrites = oneHourCacheWrites(usage);
  const output = pricing.outputPerMtok ?? 0;
  const reasoningPrice = pricing.reasoningPerMtok ?? output;
  const plainInput = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const plainOutput = Math.max(0, usage.outputTokens - usage.reasoningTokens);

  const perMillion =
    BigInt(plainInput) * BigInt(input) +
    BigInt(usage.cachedInputTokens) * BigInt(cachedPrice) +
    BigInt(usage.cacheWriteTokens - oneHourWrites) * BigInt(cacheWritePrice) +
    BigInt(oneHourWrites) * BigInt(cacheWrite1hPrice) +
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

/** The cache writes that went to the one-hour cache: a part of cacheWriteTokens, never more than all of them. */
export function oneHourCacheWrites(usage: Usage): number {
  const oneHour = usage.cacheWrite1hTokens ?? 0;
  return oneHour > usage.cacheWriteTokens ? usage.cacheWriteTokens : oneHour;
}

export function imagePrice(pricing: ModelPricing, size: string, quality: string): number {
  const table = pricing.perImage ?? {};
  return table[`${size}/${quality}`] ?? table[size] ?? table['*'] ?? 0;
}
