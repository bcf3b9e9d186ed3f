// How a usage row's charge was computed, in words a customer reads on an invoice: each quantity with its
// unit price and amount, the long-context tier when one applied, the group ratio, and the total. Built from
// the row and the model's price in force (as costOfLogRow recomputes it); when that price no longer gives
// the charge (the price list changed since the call), it says so instead of pretending.
import { costOfLogRow, usageOfLogRow, type LogQuantities } from './log-cost.ts';
import { imagePrice, MICROS_PER_USD, oneHourCacheWrites, type ModelPricing } from './pricing.ts';
import { pricesForPrompt, tierFor } from './price-tiers.ts';

interface ChargeLine {
  /** What was counted: input_tokens, cached_input_tokens, cache_write_tokens, cache_write_1h_tokens, output_tokens, reasoning_tokens, images, audio_minutes, characters, searches, request. */
  item: string;
  /** What the quantity counts, in words ("input tokens read from the cache"). */
  label: string;
  quantity: number;
  /** USD per `per`. */
  unit_price_usd: number;
  per: string;
  amount_usd: number;
  description: string;
}

interface ChargeExplanation {
  lines: ChargeLine[];
  /** The prompt's size and the tier it fell in, or null when the model has no tiers. */
  tier: { prompt_tokens: number; above_prompt_tokens: number | null } | null;
  subtotal_usd: number;
  group_ratio: number;
  total_usd: number;
  charged_usd: number;
  /** True when today's prices no longer give what was charged. */
  prices_changed: boolean;
  /** The whole calculation as sentences. */
  text: string;
}

const count = (value: number) => value.toLocaleString('en-US');
/** USD without float noise and without trailing zeros ($0.9, $0.000123). */
const usd = (value: number) => `$${Number(value.toFixed(9)).toLocaleString('en-US', { maximumFractionDigits: 9 })}`;

/** 'input token{s}' → 'input token' for one, 'input tokens' otherwise ({es} likewise). */
const plural = (noun: string, quantity: number) => noun.replace(/\{(e?s)\}/, quantity === 1 ? '' : '$1');

interface Term { item: string; quantity: number; priceMicros: number; perQuantity: number; per: string; noun: string }

export function explainCharge(row: LogQuantities & { cost_micros: number }, pricing: ModelPricing | undefined, free: boolean): ChargeExplanation {
  const charged = Number(row.cost_micros) / MICROS_PER_USD;
  const ratio = Number(row.ratio_ppm) / 1_000_000;
  const base = { lines: [], tier: null, subtotal_usd: 0, group_ratio: ratio, total_usd: 0, charged_usd: charged, prices_changed: charged !== 0 };
  if (Number(row.requests) === 0) return { ...base, text: `The call failed, so nothing was charged.${charged !== 0 ? ` (Charged ${usd(charged)}.)` : ''}` };
  if (free || !pricing) return { ...base, text: `${free ? 'The model is free' : 'The model has no price today'}, so the call costs nothing.${charged !== 0 ? ` It was charged ${usd(charged)} under the prices in force then.` : ''}` };

  const usage = usageOfLogRow(row);
  const prices = pricesForPrompt(pricing, usage.inputTokens);
  const input = prices.inputPerMtok ?? 0;
  const cacheWrite = prices.cacheWritePerMtok ?? input;
  const output = prices.outputPerMtok ?? 0;
  const oneHour = oneHourCacheWrites(usage);
  const perMillionTokens = { perQuantity: 1_000_000, per: 'million tokens' };
  const terms: Term[] = [
    { item: 'input_tokens', quantity: Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens), priceMicros: input, noun: 'input token{s}', ...perMillionTokens },
    { item: 'cached_input_tokens', quantity: usage.cachedInputTokens, priceMicros: prices.cachedInputPerMtok ?? input, noun: 'input token{s} read from the cache', ...perMillionTokens },
    { item: 'cache_write_tokens', quantity: usage.cacheWriteTokens - oneHour, priceMicros: cacheWrite, noun: 'input token{s} written to the cache (5 minutes)', ...perMillionTokens },
    { item: 'cache_write_1h_tokens', quantity: oneHour, priceMicros: prices.cacheWrite1hPerMtok ?? cacheWrite, noun: 'input token{s} written to the cache (1 hour)', ...perMillionTokens },
    { item: 'output_tokens', quantity: Math.max(0, usage.outputTokens - usage.reasoningTokens), priceMicros: output, noun: 'output token{s}', ...perMillionTokens },
    { item: 'reasoning_tokens', quantity: usage.reasoningTokens, priceMicros: prices.reasoningPerMtok ?? output, noun: 'reasoning (thinking) token{s}', ...perMillionTokens },
    { item: 'characters', quantity: usage.characters ?? 0, priceMicros: prices.perMillionChars ?? 0, noun: 'character{s} spoken', perQuantity: 1_000_000, per: 'million characters' },
    { item: 'audio_minutes', quantity: (usage.audioMs ?? 0) / 60_000, priceMicros: prices.perAudioMinute ?? 0, noun: 'minute{s} of audio', perQuantity: 1, per: 'minute' },
    { item: 'searches', quantity: usage.searches ?? 0, priceMicros: prices.perSearch ?? 0, noun: 'search{es}', perQuantity: 1, per: 'search' },
    { item: 'request', quantity: usage.requests ?? 1, priceMicros: prices.perRequest ?? 0, noun: 'request', perQuantity: 1, per: 'request' },
  ];
  if (usage.images) terms.push({ item: 'images', quantity: usage.images.count, priceMicros: imagePrice(prices, usage.images.size, usage.images.quality), noun: `image{s} (${[usage.images.size, usage.images.quality].filter(Boolean).join(', ')})`, perQuantity: 1, per: 'image' });

  // A quantity of nothing, or one that is free, adds nothing to read; a per-request price is a line of its own.
  const lines: ChargeLine[] = terms.filter((term) => term.quantity > 0 && (term.priceMicros > 0 || term.item.endsWith('tokens'))).map((term) => {
    const unitPrice = term.priceMicros / MICROS_PER_USD;
    const amount = (term.quantity * term.priceMicros) / term.perQuantity / MICROS_PER_USD;
    const quantity = term.item === 'audio_minutes' ? Number(term.quantity.toFixed(4)) : term.quantity;
    return { item: term.item, label: plural(term.noun, quantity), quantity, unit_price_usd: unitPrice, per: term.per, amount_usd: Number(amount.toFixed(12)),
      description: `${count(quantity)} ${plural(term.noun, quantity)} × ${usd(unitPrice)} per ${term.per} = ${usd(amount)}` };
  });
  const subtotal = Number(lines.reduce((sum, line) => sum + line.amount_usd, 0).toFixed(12));
  const total = costOfLogRow(row, pricing) / MICROS_PER_USD;
  const tier = pricing.tiers?.length ? { prompt_tokens: usage.inputTokens, above_prompt_tokens: tierFor(pricing, usage.inputTokens)?.abovePromptTokens ?? null } : null;
  const changed = total !== charged;

  const sentences: string[] = [];
  if (tier) {
    sentences.push(tier.above_prompt_tokens === null
      ? `The prompt was ${count(tier.prompt_tokens)} tokens, within the standard prices (the long-context prices start above ${count(pricing.tiers![0]!.abovePromptTokens)}).`
      : `The prompt was ${count(tier.prompt_tokens)} tokens, above ${count(tier.above_prompt_tokens)}, so every token is priced at the long-context rates.`);
  }
  if (Number(row.tokens_counted) === 1) sentences.push('The provider reported no token counts for this call, so the gateway counted the tokens it sent and delivered.');
  sentences.push(...lines.map((line) => `${line.description}.`));
  sentences.push(ratio === 1
    ? `Total ${usd(subtotal)}, rounded to the micro-dollar: ${usd(total)}.`
    : `Subtotal ${usd(subtotal)} × group ratio ${ratio} = ${usd(total)} (rounded to the micro-dollar).`);
  if (changed) sentences.push(`The model's prices have changed since this call: it was charged ${usd(charged)} under the prices in force then.`);
  return { lines, tier, subtotal_usd: subtotal, group_ratio: ratio, total_usd: total, charged_usd: charged, prices_changed: changed, text: sentences.join(' ') };
}
