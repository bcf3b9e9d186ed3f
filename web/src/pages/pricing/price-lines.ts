// The prices of one model as short lines a person reads ("$0.15 / 1M input tokens"), in a fixed order.
import type { PublicPrices } from '../../api/pricing-api.ts';

interface PriceLine {
  /** i18n key of the unit, e.g. "pricing.unit.input". */
  unit: string;
  usd: number;
  /** For image prices: the size/quality the price is for ("*" any). */
  variant?: string;
}

const ORDER: Array<[keyof Omit<PublicPrices, 'per_image'>, string]> = [
  ['input_per_mtok', 'input'],
  ['cached_input_per_mtok', 'cachedInput'],
  ['cache_write_per_mtok', 'cacheWrite'],
  ['cache_write_1h_per_mtok', 'cacheWrite1h'],
  ['output_per_mtok', 'output'],
  ['reasoning_per_mtok', 'reasoning'],
  ['per_request', 'request'],
  ['per_audio_minute', 'audioMinute'],
  ['per_mchars', 'mchars'],
  ['per_search', 'search'],
];

export function priceLines(prices: PublicPrices): PriceLine[] {
  const lines: PriceLine[] = [];
  for (const [field, unit] of ORDER) {
    const usd = prices[field];
    if (usd !== undefined) lines.push({ unit: `pricing.unit.${unit}`, usd });
  }
  for (const [variant, usd] of Object.entries(prices.per_image ?? {})) lines.push({ unit: 'pricing.unit.image', usd, variant });
  return lines;
}
