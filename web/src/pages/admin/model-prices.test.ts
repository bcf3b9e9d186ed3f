// The admin model form's prices: what the API gives back is shown, and what is saved is the config shape,
// with unset prices left out (so the gateway's defaults apply) and half-filled rows dropped.
import { describe, expect, it } from 'vitest';
import { emptyTier, priceFormBody, priceFormState } from './model-prices.ts';

const stored = {
  id: 'sonnet', owned_by: 'anthropic', free: false, fallbacks: [],
  input_per_mtok: 3, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6, output_per_mtok: 15, per_request: 0.001,
  per_image: { '1024x1024/hd': 0.08 },
  tiers: [{ above_prompt_tokens: 200000, input_per_mtok: 6, output_per_mtok: 22.5 }],
};

describe('model prices in the admin form', () => {
  it('round-trips every price and tier of a stored model', () => {
    const state = priceFormState(stored);
    expect(state.prices.cache_write_1h_per_mtok).toBe(6);
    expect(state.prices.reasoning_per_mtok).toBe('');
    expect(state.tiers[0]!.above).toBe(200000);
    expect(priceFormBody(state)).toEqual({
      input_per_mtok: 3, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6, output_per_mtok: 15, per_request: 0.001,
      per_image: { '1024x1024/hd': 0.08 },
      tiers: [{ above_prompt_tokens: 200000, input_per_mtok: 6, output_per_mtok: 22.5 }],
    });
  });

  it('leaves out empty prices, a tier without a threshold and an image price without a size', () => {
    const state = priceFormState(null);
    state.prices.input_per_mtok = '2.5';
    state.tiers.push({ ...emptyTier(), prices: { ...emptyTier().prices, input_per_mtok: 9 } });
    state.images.push({ key: '', price: 0.04 });
    expect(priceFormBody(state)).toEqual({ input_per_mtok: 2.5 });
  });
});
