// Long-context prices (Gemini 2.5 Pro, Claude Sonnet with the 1M context): once a call's prompt is longer
// than a threshold, every token of the call is priced at the tier's rates, as the providers bill it. The
// prompt is the whole input, cached and cache-write tokens included (Anthropic counts input + cache reads
// + cache writes against its 200k; Google counts the prompt with its cached part). The estimate before a
// call goes through the same choice, so the wallet reservation is made at the tier the call will fall in.
import type { ModelPricing, PriceTier } from './model-pricing.ts';
import { TOKEN_PRICE_FIELDS } from './price-fields.ts';

const TOKEN_PRICE_KEYS = TOKEN_PRICE_FIELDS.map((field) => field.key);

// Each tier's merged price list is built once (prices are immutable per snapshot): the call path allocates
// nothing to price a long prompt.
const mergedOfTier = new WeakMap<PriceTier, ModelPricing>();

/** The tier a prompt of `promptTokens` falls in: the last whose threshold it is above; none below the first. */
export function tierFor(pricing: ModelPricing, promptTokens: number): PriceTier | undefined {
  const tiers = pricing.tiers;
  if (tiers === undefined) return undefined;
  let chosen: PriceTier | undefined;
  for (const tier of tiers) if (promptTokens > tier.abovePromptTokens) chosen = tier;
  return chosen;
}

/**
 * The prices a call with a prompt of `promptTokens` pays: the model's own, or those with the tier's token
 * prices in place of the listed ones. A price the tier leaves out is the listed one; a price neither states
 * defaults as ever (cached and cache writes to the input price, reasoning to the output price), so a tier
 * that raises the input price raises the defaulted cached price with it.
 */
export function pricesForPrompt(pricing: ModelPricing, promptTokens: number): ModelPricing {
  const tier = tierFor(pricing, promptTokens);
  if (tier === undefined) return pricing;
  let merged = mergedOfTier.get(tier);
  if (merged === undefined) {
    merged = { ...pricing };
    delete merged.tiers;
    for (const key of TOKEN_PRICE_KEYS) if (tier[key] !== undefined) merged[key] = tier[key];
    mergedOfTier.set(tier, merged);
  }
  return merged;
}
