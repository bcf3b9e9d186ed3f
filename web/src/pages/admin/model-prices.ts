// The admin model form's prices as editable text and back to the config file's shape (USD): every token
// price, the per-unit prices, the per-image table and the long-context tiers. An empty field is a price left
// unset, which the gateway defaults (cached and cache writes to the input price, the one-hour write to the
// five-minute one, reasoning to the output price); a tier's empty field is the model's own price. Each
// field's label is admin.prices.<field> in the catalogues.

import type { AdminModel } from '../../api/admin-api.ts';

export const TOKEN_PRICES = [
  { field: 'input_per_mtok' },
  { field: 'cached_input_per_mtok' },
  { field: 'cache_write_per_mtok' },
  { field: 'cache_write_1h_per_mtok' },
  { field: 'output_per_mtok' },
  { field: 'reasoning_per_mtok' },
] as const;

export const UNIT_PRICES = [
  { field: 'per_request' },
  { field: 'per_audio_minute' },
  { field: 'per_mchars' },
  { field: 'per_search' },
] as const;

export type PriceText = number | string;
export interface TierText { above: PriceText; prices: Record<string, PriceText> }
export interface ImagePriceText { key: string; price: PriceText }
export interface PriceFormState {
  prices: Record<string, PriceText>;
  images: ImagePriceText[];
  tiers: TierText[];
}

/** Every field this form edits; the rest of a stored model (limits, fallbacks…) is kept as it was. */
export const PRICE_FORM_FIELDS: readonly string[] = [...TOKEN_PRICES.map((p) => p.field), ...UNIT_PRICES.map((p) => p.field), 'per_image', 'tiers'];

const asText = (value: unknown): PriceText => (typeof value === 'number' ? value : '');
const tokenPricesText = (source: Partial<Record<(typeof TOKEN_PRICES)[number]['field'], number>> | undefined) => Object.fromEntries(TOKEN_PRICES.map(({ field }) => [field, asText(source?.[field])]));

export function priceFormState(model: AdminModel | null): PriceFormState {
  const prices = { ...tokenPricesText(model ?? undefined), ...Object.fromEntries(UNIT_PRICES.map(({ field }) => [field, asText(model?.[field])])) };
  const perImage = model?.per_image ?? {};
  const tiers = model?.tiers ?? [];
  return {
    prices,
    images: Object.entries(perImage).map(([key, price]) => ({ key, price })),
    tiers: tiers.map((tier) => ({ above: asText(tier.above_prompt_tokens), prices: tokenPricesText(tier) })),
  };
}

const isSet = (value: PriceText) => value !== '' && Number.isFinite(Number(value));

/** The prices in the config file's shape: only what is set; a tier without a threshold is left out. */
export function priceFormBody(state: PriceFormState): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(state.prices)) if (isSet(value)) body[field] = Number(value);
  const images = state.images.filter((image) => image.key.trim() !== '' && isSet(image.price));
  if (images.length > 0) body.per_image = Object.fromEntries(images.map((image) => [image.key.trim(), Number(image.price)]));
  const tiers = state.tiers.filter((tier) => isSet(tier.above)).map((tier) => {
    const out: Record<string, unknown> = { above_prompt_tokens: Number(tier.above) };
    for (const [field, value] of Object.entries(tier.prices)) if (isSet(value)) out[field] = Number(value);
    return out;
  });
  if (tiers.length > 0) body.tiers = tiers;
  return body;
}

export const emptyTier = (): TierText => ({ above: '', prices: tokenPricesText(undefined) });
