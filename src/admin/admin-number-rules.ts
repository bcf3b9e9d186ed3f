// What the admin API accepts for prices, group ratios and group names, on top of the config file's shapes:
// the source of truth for the dashboard's forms, which check the same rules before sending. Nothing here
// rounds or clamps: a number that would not be stored exactly as typed is refused with a 400 naming it.
//
// Decisions (issue 31): a group ratio is more than 0 and at most 100, exact to a millionth: the config
// file's own rule (src/config/config-file-schema.ts), so the file, the API and the dashboard agree. A price is at most 10,000 USD
// per unit (a million tokens, a request, an image, a minute, a search) and exact to a micro-dollar (stored
// in integer micro-USD: $0.0000001 would silently become $0).
import type { z } from 'zod';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { invalidRequest } from '../gateway-errors.ts';
import { hasAtMostDecimals } from '../metering/money-bounds.ts';
import { groupConfigSchema, modelConfigSchema } from './admin-catalog.ts';
import { existingGroupNames } from '../db/repositories/groups.ts';
import { existingModelIds } from '../db/repositories/models.ts';

const MAX_PRICE_USD = 10_000;
/** Hedging waits at most ten minutes for a first byte; a channel timeout is at most an hour. */
const MAX_HEDGE_AFTER_MS = 600_000;
const MAX_TIMEOUT_MS = 3_600_000;
const MAX_FALLBACKS = 16;
/** Token, image and character limits of a model: far above any real model, below what would overflow. */
const MODEL_LIMIT_BOUNDS = { context_window: 100_000_000, max_output_tokens: 100_000_000, max_images: 1_000, max_prompt_chars: 100_000_000 } as const;

/** Price fields are the ones named per_… or …_per_…, at any depth (per_image's sizes, tiers). */
const isPriceField = (name: string) => /(^|_)per(_|$)/.test(name);

function checkPrices(value: unknown, path: (string | number)[], inPrice: boolean, context: z.RefinementCtx): void {
  if (typeof value === 'number' && inPrice) {
    if (value > MAX_PRICE_USD) context.addIssue({ code: 'custom', path, message: `must be at most ${MAX_PRICE_USD.toLocaleString('en-US')} USD` });
    else if (!hasAtMostDecimals(value, 6)) context.addIssue({ code: 'custom', path, message: 'must be exact to a micro-dollar (at most 6 decimals)' });
    return;
  }
  if (Array.isArray(value)) value.forEach((item, index) => checkPrices(item, [...path, index], inPrice, context));
  else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) checkPrices(item, [...path, name], inPrice || isPriceField(name), context);
  }
}

/**
 * PUT /api/admin/models: the config file's model, with every price bounded and exact, the limits and the
 * hedging delay bounded, and fallbacks that are other models, each once (whether they exist: requireKnownModels).
 */
export const adminModelSchema = modelConfigSchema.superRefine((model, context) => {
  checkPrices(model, [], false, context);
  for (const [field, max] of Object.entries(MODEL_LIMIT_BOUNDS)) {
    const value = (model as Record<string, unknown>)[field];
    if (typeof value === 'number' && value > max) context.addIssue({ code: 'custom', path: [field], message: `must be at most ${max.toLocaleString('en-US')}` });
  }
  if (model.hedge_after_ms !== undefined && model.hedge_after_ms > MAX_HEDGE_AFTER_MS) context.addIssue({ code: 'custom', path: ['hedge_after_ms'], message: `must be at most ${MAX_HEDGE_AFTER_MS.toLocaleString('en-US')} ms (0 turns hedging off)` });
  if (model.fallbacks.length > MAX_FALLBACKS) context.addIssue({ code: 'custom', path: ['fallbacks'], message: `must list at most ${MAX_FALLBACKS} models` });
  if (model.fallbacks.includes(model.id)) context.addIssue({ code: 'custom', path: ['fallbacks'], message: 'must not list the model itself' });
  if (new Set(model.fallbacks).size !== model.fallbacks.length) context.addIssue({ code: 'custom', path: ['fallbacks'], message: 'must list each model once' });
});

/** A 400 naming the field when a fallback is not a model (a call would fail over to nothing). */
export async function requireKnownModels(db: Db, ids: readonly string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const known = await existingModelIds(db, ids);
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw invalidRequest(`Invalid value for '${field}': there is no model '${unknown}'. Add it under Models and prices first.`, field, 'unknown_model');
}

/** A channel's timeouts: each at most an hour (a longer one is a typo that would hold connections for days). */
export function checkChannelTimeouts(timeouts: Record<string, number | undefined> | undefined): void {
  for (const [field, value] of Object.entries(timeouts ?? {})) {
    if (value !== undefined && value > MAX_TIMEOUT_MS) throw invalidRequest(`Invalid value for 'timeouts.${field}': must be at most ${MAX_TIMEOUT_MS.toLocaleString('en-US')} ms.`, `timeouts.${field}`, 'invalid_value');
  }
}

/** PUT /api/admin/groups: the config file's group as it is (its ratio rule is the file's: more than 0, bounded, exact). */
export const adminGroupSchema = groupConfigSchema;

/** A 400 naming the field when a group name is not a group (a key or channel in it would never route). */
export async function requireKnownGroups(db: Db, names: readonly string[], field: string): Promise<void> {
  if (names.length === 0) return;
  const known = await existingGroupNames(db, names);
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined) throw invalidRequest(`Invalid value for '${field}': there is no group named '${unknown}'. Create it under Groups first.`, field, 'unknown_group');
}
