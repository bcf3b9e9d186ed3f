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
}

export const MICROS_PER_USD = 1_000_000;
const PPM = 1_000_000n;
const TOKENS_PER_MTOK = 1_000_000n;

/** USD as written in a config file → integer micro-USD. */
export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

export function computeCostMicros(pricing: ModelPricing, usage: Usage, ratioPpm: number): number {
  const input = pricing.inputPerMtok ?? 0;
  const cachedPrice = pricing.cachedInputPerMtok ?? input;
  const cacheWritePrice = pricing.cacheWritePerMtok ?? input;
  const output = pricing.outputPerMtok ?? 0;
  const reasoningPrice = pricing.reasoningPerMtok ?? output;
  const plainInput = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const plainOutput = Math.max(0, usage.outputTokens - usage.reasoningTokens);

  const tokenMicrosTimesMtok =
    BigInt(plainInput) * BigInt(input) +
    BigInt(usage.cachedInputTokens) * BigInt(cachedPrice) +
    BigInt(usage.cacheWriteTokens) * BigInt(cacheWritePrice) +
    BigInt(plainOutput) * BigInt(output) +
    BigInt(usage.reasoningTokens) * BigInt(reasoningPrice);
  const totalTimesMtok = tokenMicrosTimesMtok + BigInt(pricing.perRequest ?? 0) * TOKENS_PER_MTOK;
  const divisor = TOKENS_PER_MTOK * PPM;
  const scaled = totalTimesMtok * BigInt(ratioPpm);
  return Number((scaled + divisor / 2n) / divisor);
}
