// Long-context tiers and one-hour cache writes with the providers' published prices, through the config
// file's own reader (USD per Mtok → stored micro-USD), so these are the numbers an operator enters.
import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../src/config/config-file-schema.ts';
import { modelRowFromConfig } from '../../src/config/config-to-rows.ts';
import { computeCostMicros, type ModelPricing } from '../../src/metering/pricing.ts';
import { tierFor } from '../../src/metering/price-tiers.ts';
import type { Usage } from '../../src/metering/usage.ts';

function pricingOf(model: object): ModelPricing {
  const config = configFileSchema.parse({ models: [{ id: 'm', ...model }] });
  return JSON.parse(modelRowFromConfig(config.models[0]!).pricing_json) as ModelPricing;
}

const usage = (fields: Partial<Usage>): Usage => ({ inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, ...fields });

// Gemini 2.5 Pro: $1.25 / $10 per Mtok up to 200k prompt tokens, $2.50 / $15 above; cached $0.31 / $0.625.
const geminiPro = pricingOf({
  input_per_mtok: 1.25, cached_input_per_mtok: 0.31, output_per_mtok: 10,
  tiers: [{ above_prompt_tokens: 200_000, input_per_mtok: 2.5, cached_input_per_mtok: 0.625, output_per_mtok: 15 }],
});

// Claude Sonnet with the 1M context: $3 / $15, writes $3.75 (5 min) and $6 (1 h), reads $0.30; above 200k
// prompt tokens $6 / $22.50, writes $7.50 and $12, reads $0.60.
const sonnet = pricingOf({
  input_per_mtok: 3, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6, output_per_mtok: 15,
  tiers: [{ above_prompt_tokens: 200_000, input_per_mtok: 6, cached_input_per_mtok: 0.6, cache_write_per_mtok: 7.5, cache_write_1h_per_mtok: 12, output_per_mtok: 22.5 }],
});

describe('long-context tiers', () => {
  it('Gemini 2.5 Pro: a 250k-token prompt pays the long-context rates on every token', () => {
    // 250,000 × $2.50 + 1,000 × $15 per Mtok = $0.64 (the listed rates would say $0.3225).
    expect(computeCostMicros(geminiPro, usage({ inputTokens: 250_000, outputTokens: 1_000 }), 1_000_000)).toBe(640_000);
    expect(computeCostMicros(geminiPro, usage({ inputTokens: 150_000, outputTokens: 1_000 }), 1_000_000)).toBe(197_500);
  });

  it('the threshold is "above": exactly 200,000 prompt tokens is the listed rate, 200,001 the tier', () => {
    expect(tierFor(geminiPro, 200_000)).toBeUndefined();
    expect(tierFor(geminiPro, 200_001)?.abovePromptTokens).toBe(200_000);
    expect(computeCostMicros(geminiPro, usage({ inputTokens: 200_000 }), 1_000_000)).toBe(250_000);
    expect(computeCostMicros(geminiPro, usage({ inputTokens: 200_001 }), 1_000_000)).toBe(500_003); // 500,002.5 rounded half up
  });

  it('Claude Sonnet 1M: the prompt counted for the tier includes cache reads and writes, which are then priced by the tier', () => {
    // 150k uncached + 40k read + 20k written (10k of them for an hour) = 210k: above 200k, though 150k is not.
    const call = usage({ inputTokens: 210_000, cachedInputTokens: 40_000, cacheWriteTokens: 20_000, cacheWrite1hTokens: 10_000, outputTokens: 2_000 });
    // 150k × 6 + 40k × 0.6 + 10k × 7.5 + 10k × 12 + 2k × 22.5 = 900,000 + 24,000 + 75,000 + 120,000 + 45,000
    expect(computeCostMicros(sonnet, call, 1_000_000)).toBe(1_164_000);
    // Under a group ratio of 0.8, rounded once.
    expect(computeCostMicros(sonnet, call, 800_000)).toBe(931_200);
  });

  it('a one-hour write costs its own price; without one it costs the five-minute price, as before', () => {
    // The call: 2,000 tokens written to the one-hour cache at Sonnet's $6 per Mtok is $0.012, not $0.0075.
    expect(computeCostMicros(sonnet, usage({ inputTokens: 2_000, cacheWriteTokens: 2_000, cacheWrite1hTokens: 2_000 }), 1_000_000)).toBe(12_000);
    const withoutOneHourPrice = pricingOf({ input_per_mtok: 3, cache_write_per_mtok: 3.75 });
    expect(computeCostMicros(withoutOneHourPrice, usage({ inputTokens: 2_000, cacheWriteTokens: 2_000, cacheWrite1hTokens: 2_000 }), 1_000_000)).toBe(7_500);
  });

  it('a tier replaces only the prices it names; a price nobody names defaults within the tier', () => {
    const pricing = pricingOf({ input_per_mtok: 1, cached_input_per_mtok: 0.5, output_per_mtok: 4, tiers: [{ above_prompt_tokens: 100, input_per_mtok: 10 }] });
    // Above 100: input 10 (the tier's), cached 0.5 (listed), output 4 (listed), cache writes default to the tier's input.
    expect(computeCostMicros(pricing, usage({ inputTokens: 1_000_000, cachedInputTokens: 100_000, cacheWriteTokens: 100_000, outputTokens: 10_000 }), 1_000_000))
      .toBe(800_000 * 10 + 100_000 * 0.5 + 100_000 * 10 + 10_000 * 4);
  });

  it('several tiers: the last one the prompt is above applies, in whatever order they were written', () => {
    const pricing = pricingOf({ input_per_mtok: 1, tiers: [{ above_prompt_tokens: 1_000, input_per_mtok: 3 }, { above_prompt_tokens: 100, input_per_mtok: 2 }] });
    expect(computeCostMicros(pricing, usage({ inputTokens: 100 }), 1_000_000)).toBe(100);
    expect(computeCostMicros(pricing, usage({ inputTokens: 500 }), 1_000_000)).toBe(1_000);
    expect(computeCostMicros(pricing, usage({ inputTokens: 5_000 }), 1_000_000)).toBe(15_000);
  });

  it('the config refuses two tiers with one threshold, and a threshold that is no positive whole number', () => {
    expect(() => pricingOf({ input_per_mtok: 1, tiers: [{ above_prompt_tokens: 100, input_per_mtok: 2 }, { above_prompt_tokens: 100, input_per_mtok: 3 }] })).toThrow(/its own above_prompt_tokens/);
    expect(() => pricingOf({ input_per_mtok: 1, tiers: [{ above_prompt_tokens: 0, input_per_mtok: 2 }] })).toThrow();
    expect(() => pricingOf({ input_per_mtok: 1, tiers: [{ above_prompt_tokens: 100, per_request: 2 }] })).toThrow();
  });
});
