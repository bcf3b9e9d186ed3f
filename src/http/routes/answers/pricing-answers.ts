// What GET /api/pricing answers (src/accounts/public-pricing.ts builds it): USD amounts, the group's ratio
// already applied, and only the prices a model has.
import { z } from 'zod';
import { MODEL_KINDS } from '../../../config/model-capabilities.ts';
import { tokenPriceAnswers, usdPrice } from './common-answers.ts';

const usd = usdPrice;

const priceView = z.object({
  ...tokenPriceAnswers,
  per_request: usd.optional(),
  per_audio_minute: usd.optional(),
  per_mchars: usd.optional(),
  per_search: usd.optional(),
  per_image: z.record(z.string(), usd).optional(),
});

const publicModelPrice = z.object({
  id: z.string(),
  owned_by: z.string(),
  kind: z.enum(MODEL_KINDS),
  free: z.boolean(),
  prices: priceView,
  tiers: z.array(z.object({ above_prompt_tokens: z.number().int(), prices: priceView })).optional(),
});

export const publicPricingAnswer = z.object({
  groups: z.array(z.object({ name: z.string(), description: z.string().nullable(), ratio: z.number().positive(), models: z.array(publicModelPrice) })),
});
