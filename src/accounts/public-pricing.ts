// The public pricing page's data (issue 31): the models of each group anyone may pick for a key, with the
// group's ratio applied to every price. It reveals only what a signed-up user could learn anyway: the
// self-service groups (never a group reserved by an administrator), model ids, their owner label and
// prices; never a channel, its name, its upstream model id or its keys. Off unless an administrator turns
// it on (setting `pricing_page`); off, the route answers 404 like any unknown path.
import type { AccountsDeps } from './accounts-deps.ts';
import type { GatewaySnapshot } from '../gateway-state.ts';
import type { ModelPricing, TokenPrices } from '../metering/model-pricing.ts';
import { TOKEN_PRICE_FIELDS, type TokenPriceConfigName } from '../metering/price-fields.ts';
import { getSetting, setSetting } from '../db/repositories/settings.ts';
import { listGroupsNamed } from '../db/repositories/groups.ts';
import { pricingPageSettingColumn } from '../db/json-columns.ts';
import { selfServiceGroups } from './user-keys.ts';
import { kindOfModel } from '../config/model-kind.ts';
import type { ModelKind } from '../config/model-capabilities.ts';

const PRICING_PAGE_SETTING = 'pricing_page';

interface PricingPageSetting {
  enabled: boolean;
}

export async function pricingPageSetting(deps: Pick<AccountsDeps, 'db'>): Promise<PricingPageSetting> {
  return (await getSetting(deps.db, PRICING_PAGE_SETTING, pricingPageSettingColumn)) ?? { enabled: false };
}

export async function setPricingPageSetting(deps: Pick<AccountsDeps, 'db'>, setting: PricingPageSetting): Promise<void> {
  await setSetting(deps.db, PRICING_PAGE_SETTING, setting);
}

type PriceView = Partial<Record<TokenPriceConfigName | 'per_request' | 'per_audio_minute' | 'per_mchars' | 'per_search', number>> & { per_image?: Record<string, number> };

interface PublicModelPrice {
  id: string;
  owned_by: string;
  kind: ModelKind;
  free: boolean;
  prices: PriceView;
  /** Long-context prices: above this many prompt tokens, the token prices it names. */
  tiers?: Array<{ above_prompt_tokens: number; prices: PriceView }>;
}

interface PublicGroupPricing {
  name: string;
  description: string | null;
  ratio: number;
  models: PublicModelPrice[];
}

/** Micro-USD × the group's ratio (parts per million), in USD: exact in BigInt, one rounding into a number. */
const priced = (micros: number, ratioPpm: number) => Number((BigInt(micros) * BigInt(ratioPpm)) / 1000n) / 1e9;

function tokenPrices(prices: TokenPrices, ratioPpm: number): PriceView {
  const view: PriceView = {};
  for (const { config, key } of TOKEN_PRICE_FIELDS) {
    const micros = prices[key];
    if (micros !== undefined) view[config] = priced(micros, ratioPpm);
  }
  return view;
}

function priceView(pricing: ModelPricing, ratioPpm: number): PriceView {
  const view = tokenPrices(pricing, ratioPpm);
  const other = { per_request: pricing.perRequest, per_audio_minute: pricing.perAudioMinute, per_mchars: pricing.perMillionChars, per_search: pricing.perSearch };
  for (const [name, micros] of Object.entries(other)) if (micros !== undefined) view[name as keyof typeof other] = priced(micros, ratioPpm);
  if (pricing.perImage) view.per_image = Object.fromEntries(Object.entries(pricing.perImage).map(([size, micros]) => [size, priced(micros, ratioPpm)]));
  return view;
}

/** Every model a group's keys can call and that has a price or is free (an unpriced model is refused anyway). */
function groupModels(snapshot: GatewaySnapshot, group: string, ratioPpm: number): PublicModelPrice[] {
  const models: PublicModelPrice[] = [];
  for (const model of snapshot.routing.modelsForGroup(group)) {
    const row = snapshot.models.get(model.id);
    const pricing = snapshot.pricing.get(model.id);
    if (!row || !pricing) continue;
    const free = row.free === 1;
    const prices = free ? {} : priceView(pricing, ratioPpm);
    if (!free && Object.keys(prices).length === 0) continue;
    const tiers = free ? undefined : pricing.tiers?.map((tier) => ({ above_prompt_tokens: tier.abovePromptTokens, prices: tokenPrices(tier, ratioPpm) }));
    models.push({ id: model.id, owned_by: model.ownedBy, kind: kindOfModel(row, pricing), free, prices, ...(tiers?.length ? { tiers } : {}) });
  }
  return models;
}

/** The page's data, or null when the page is off. */
export async function publicPricing(deps: Pick<AccountsDeps, 'db'>, snapshot: GatewaySnapshot): Promise<{ groups: PublicGroupPricing[] } | null> {
  if (!(await pricingPageSetting(deps)).enabled) return null;
  const names = await selfServiceGroups(deps);
  const rows = await listGroupsNamed(deps.db, names);
  return {
    groups: rows.map((group) => ({ name: group.name, description: group.description, ratio: group.ratio_ppm / 1_000_000, models: groupModels(snapshot, group.name, group.ratio_ppm) })),
  };
}
