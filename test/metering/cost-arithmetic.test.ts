// The cost of a call is computed with plain numbers when every step is an exact safe integer and with
// BigInt otherwise (src/metering/pricing.ts). The two must agree to the micro-USD on every input the fast
// path accepts, and computeCostMicros must agree with the BigInt reference on every input at all:
// typical calls, prices and counts at every magnitude up to past 2^53, ratios, per-request and search
// prices, zeros, and rounding exactly at the half.
import { describe, expect, it } from 'vitest';
import { computeCostMicros, costInBigInts, costInSafeIntegers, type ModelPricing } from '../../src/metering/pricing.ts';
import type { Usage } from '../../src/metering/usage.ts';

/** A deterministic generator, so a failure names a reproducible case. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Integers spread over magnitudes: 0, small, around 2^26, 2^31, 2^53 and beyond.
  const magnitude = (max: number) => {
    const choice = next();
    if (choice < 0.15) return 0;
    if (choice < 0.2) return Number.MAX_SAFE_INTEGER - Math.floor(next() * 3);
    const digits = Math.floor(next() * Math.log10(max));
    return Math.floor(next() * 10 ** (digits + 1));
  };
  return { next, magnitude };
}

function randomCase(random: ReturnType<typeof generator>): { pricing: ModelPricing; usage: Usage; ratio: number } {
  const { next, magnitude } = random;
  const big = next() < 0.1 ? 1e17 : 1e9;
  const maybe = (value: number) => (next() < 0.5 ? undefined : value);
  const pricing: ModelPricing = {
    inputPerMtok: maybe(magnitude(big)), cachedInputPerMtok: maybe(magnitude(big)), cacheWritePerMtok: maybe(magnitude(big)),
    outputPerMtok: maybe(magnitude(big)), reasoningPerMtok: maybe(magnitude(big)), perRequest: maybe(magnitude(big)),
    perMillionChars: maybe(magnitude(big)), perSearch: maybe(magnitude(big)), cacheWrite1hPerMtok: maybe(magnitude(big)),
  };
  // Long-context tiers now and then, so the tier's prices go through both arithmetics too.
  if (next() < 0.3) pricing.tiers = [{ abovePromptTokens: magnitude(1e6), inputPerMtok: maybe(magnitude(big)), cacheWrite1hPerMtok: maybe(magnitude(big)), outputPerMtok: maybe(magnitude(big)) }];
  const inputTokens = magnitude(big);
  const outputTokens = magnitude(big);
  const usage: Usage = {
    inputTokens, cachedInputTokens: Math.min(inputTokens, magnitude(big)), cacheWriteTokens: magnitude(1e6), cacheWrite1hTokens: maybe(magnitude(1e6)),
    outputTokens, reasoningTokens: Math.min(outputTokens, magnitude(big)),
    characters: maybe(magnitude(big)), searches: maybe(magnitude(100)), requests: maybe(next() < 0.5 ? 0 : 1),
  };
  return { pricing, usage, ratio: next() < 0.3 ? 1_000_000 : magnitude(next() < 0.1 ? 1e12 : 1e7) };
}

describe('the cost of a call', () => {
  it('is the BigInt result on 200,000 generated cases, and the fast path takes the typical ones', () => {
    const random = generator(16);
    let fast = 0;
    for (let index = 0; index < 200_000; index++) {
      const { pricing, usage, ratio } = randomCase(random);
      const reference = costInBigInts(pricing, usage, ratio);
      const quick = costInSafeIntegers(pricing, usage, ratio);
      if (quick !== null) {
        fast++;
        if (quick !== reference) expect({ index, pricing, usage, ratio, quick }).toEqual({ index, pricing, usage, ratio, quick: reference });
      }
      if (computeCostMicros(pricing, usage, ratio) !== reference) expect({ index, pricing, usage, ratio }).toBe('the same cost');
    }
    // Most generated cases fit; a run where none did would test nothing.
    expect(fast).toBeGreaterThan(50_000);
  });

  it('takes the fast path for an ordinary call and rounds half a micro-USD up, as the BigInt arithmetic does', () => {
    const pricing: ModelPricing = { inputPerMtok: 150_000, outputPerMtok: 600_000 };
    const usage: Usage = { inputTokens: 120, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 64, reasoningTokens: 0 };
    expect(costInSafeIntegers(pricing, usage, 1_000_000)).toBe(56); // 18 + 38.4 = 56.4 µUSD
    expect(costInBigInts(pricing, usage, 1_000_000)).toBe(56);
    // Exactly half a micro-USD: 1 token at 500,000 µUSD/Mtok = 0.5 → 1; at 499,999 → 0.
    const half = { ...usage, inputTokens: 1, outputTokens: 0 };
    expect(costInSafeIntegers({ inputPerMtok: 500_000 }, half, 1_000_000)).toBe(1);
    expect(costInSafeIntegers({ inputPerMtok: 499_999 }, half, 1_000_000)).toBe(0);
    expect(costInBigInts({ inputPerMtok: 500_000 }, half, 1_000_000)).toBe(1);
    // The largest quotients, one unit below and at a whole number (the division's float result must not round up).
    for (const price of [8_999_499_999_999_999, 8_999_500_000_000_000, 9_006_999_999_999_999 - 500_000_000_000]) {
      expect(costInSafeIntegers({ inputPerMtok: price }, half, 1)).toBe(costInBigInts({ inputPerMtok: price }, half, 1));
    }
    expect(costInSafeIntegers({ inputPerMtok: 8_999_499_999_999_999 }, half, 1)).toBe(8_999);
  });

  it('leaves audio, images, unsafe and negative quantities to the BigInt arithmetic', () => {
    const usage: Usage = { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 10, reasoningTokens: 0 };
    const pricing: ModelPricing = { inputPerMtok: 1_000_000, perAudioMinute: 6_000, perImage: { '*': 40_000 } };
    expect(costInSafeIntegers(pricing, { ...usage, audioMs: 30_000 }, 1_000_000)).toBeNull();
    expect(computeCostMicros(pricing, { ...usage, audioMs: 30_000 }, 1_000_000)).toBe(costInBigInts(pricing, { ...usage, audioMs: 30_000 }, 1_000_000));
    expect(costInSafeIntegers(pricing, { ...usage, images: { count: 2, size: '1024x1024', quality: 'hd' } }, 1_000_000)).toBeNull();
    expect(costInSafeIntegers({ inputPerMtok: Number.MAX_SAFE_INTEGER }, usage, 1_000_000)).toBeNull();
    expect(computeCostMicros({ inputPerMtok: Number.MAX_SAFE_INTEGER }, usage, 1_000_000)).toBe(costInBigInts({ inputPerMtok: Number.MAX_SAFE_INTEGER }, usage, 1_000_000));
    expect(costInSafeIntegers({ inputPerMtok: -5 }, usage, 1_000_000)).toBeNull();
    expect(costInSafeIntegers(pricing, { ...usage, inputTokens: 1.5 }, 1_000_000)).toBeNull();
    // A fractional count is refused by the BigInt arithmetic as before, not priced differently.
    expect(() => computeCostMicros(pricing, { ...usage, outputTokens: 1.5 }, 1_000_000)).toThrow(RangeError);
  });
});
