// Channels, models (with prices) and groups edited at runtime, in the config file's own shapes and units
// (the same zod schemas validate both), so what an admin sends is what the file would say. Upstream keys
// are write-only: views never carry them, not even masked. Every change is announced, so every instance
// routes with it on its next request.
import type { z, ZodArray, ZodDefault, ZodObject } from 'zod';
import { configFileSchema } from '../config/config-file-schema.ts';
import { channelSchemas, type ChannelConfig, type ChannelEdit } from '../config/channel-schema.ts';
import { channelRowFromConfig, groupRowFromConfig, modelRowFromConfig } from '../config/config-to-rows.ts';
import type { GroupRow } from '../db/schema.ts';
import { deleteChannelById, findChannelById, insertChannel, listChannels, updateChannel, type Channel } from '../db/repositories/channels.ts';
import { deleteGroupByName, findGroupByName, listGroups, putGroupByName } from '../db/repositories/groups.ts';
import { groupHasKeys } from '../db/repositories/api-keys.ts';
import { deleteModelById, findModel, listModels, putModelById, type Model } from '../db/repositories/models.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import { apiNotFound, conflict } from '../gateway-errors.ts';
import { parseBody } from '../validate-request.ts';
import { MICROS_PER_USD, type TokenPrices } from '../metering/pricing.ts';
import { TOKEN_PRICE_FIELDS, type TokenPriceConfigName } from '../metering/price-fields.ts';
import { getProviderEntry } from '../providers/registry.ts';
import { openSecretSettings, putSecrets, sealSecretSettings } from '../providers/provider-secrets.ts';

type Element<T> = T extends ZodDefault<ZodArray<infer E>> ? E : never;
const element = <T extends ZodDefault<ZodArray<ZodObject>>>(schema: T) => schema.unwrap().element as Element<T>;
export const modelConfigSchema = element(configFileSchema.shape.models);
export const groupConfigSchema = element(configFileSchema.shape.groups);
// Channels: the schemas follow the provider registry (src/config/channel-schema.ts). A PATCH body has every
// field optional and no defaults (a zod default inside .partial() would still fill in absent fields, and
// reset the groups, weight or status a PATCH did not mention); the merged whole is then checked as an edit.
type ModelInput = z.infer<typeof modelConfigSchema>;
type GroupInput = z.infer<typeof groupConfigSchema>;

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test((error as Error).message);

export function channelView(row: Channel) {
  const settings = row.settings;
  const t = settings.timeouts;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ...(row.base_url ? { base_url: row.base_url } : {}),
    models: row.models,
    model_mapping: row.model_mapping,
    groups: row.groups,
    priority: row.priority,
    weight: row.weight,
    enabled: row.status === 'enabled',
    status: row.status,
    status_reason: row.status_reason,
    ...(settings.supportsPrefill !== undefined ? { supports_prefill: settings.supportsPrefill } : {}),
    ...(settings.chatFormat !== undefined ? { chat_format: settings.chatFormat } : {}),
    ...(settings.unsupportedEndpoints !== undefined ? { unsupported_endpoints: settings.unsupportedEndpoints } : {}),
    ...(typeof settings.http2 === 'boolean' ? { http2: settings.http2 } : {}),
    ...(typeof settings.responsesWebSocket === 'boolean' ? { responses_websocket: settings.responsesWebSocket } : {}),
    ...(t ? { timeouts: Object.fromEntries(Object.entries({ connect_ms: t.connectMs, headers_ms: t.headersMs, first_token_ms: t.firstTokenMs, idle_ms: t.idleMs }).filter(([, v]) => v !== undefined)) } : {}),
    // The type's own settings (src/providers/*), in the config file's shape.
    ...settings.provider,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Every channel, by id. */
export async function listChannelViews(db: Db) {
  return (await listChannels(db, 'id')).map(channelView);
}

/** The editable part of a view, in the config file's shape (no id, status, key). */
function channelAsConfig(row: Channel): Record<string, unknown> {
  const { id: _id, status: _status, status_reason: _reason, updated_at: _updated, ...config } = channelView(row);
  return config;
}

export async function createChannel(db: Db, secrets: SecretBox, input: ChannelConfig): Promise<Channel> {
  const parsed = parseBody(channelSchemas().channel, input);
  try {
    return await insertChannel(db, {
      ...channelRowFromConfig(parsed, (secret) => sealSecretSettings(secrets, secret)),
      api_keys_encrypted: secrets.encrypt(JSON.stringify([parsed.api_key].flat())),
      status_reason: null,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A channel named '${parsed.name}' exists.`, 'name', 'name_taken');
    throw error;
  }
}

/** Merges the changes into the stored channel (in config shape), validates the whole, and writes it. */
export async function editChannel(db: Db, secrets: SecretBox, id: number, changes: Partial<ChannelEdit>): Promise<{ before: Channel; after: Channel }> {
  const before = await findChannelById(db, id);
  if (!before) throw apiNotFound('Channel');
  const stored = channelAsConfig(before);
  // A new type leaves the old type's settings behind (Azure's azure:, Bedrock's region), unless the edit gives them.
  if (changes.type !== undefined && changes.type !== before.type) {
    for (const field of Object.keys(getProviderEntry(before.type).settings ?? {})) delete stored[field];
    delete stored.chat_format;
  }
  // Secret settings are never shown, so an edit that does not give them again keeps the stored ones.
  const storedSettings = before.settings;
  const sameType = changes.type === undefined || changes.type === before.type;
  const kept = sameType ? openSecretSettings(secrets, storedSettings.providerSecrets) : null;
  const merged = parseBody(channelSchemas().edit, putSecrets({ ...stored, ...changes }, kept));
  const { api_key: newKey, ...rest } = merged;
  const row = channelRowFromConfig(rest, (secret) => sealSecretSettings(secrets, secret, sameType ? storedSettings.providerSecrets : undefined));
  // An automatically disabled channel stays so unless the edit says enabled explicitly.
  const status = changes.enabled === undefined ? before.status : row.status;
  try {
    const after = await updateChannel(db, id, {
      ...row, status, status_reason: status === 'enabled' ? null : before.status_reason ?? 'disabled by an administrator',
      ...(newKey !== undefined ? { api_keys_encrypted: secrets.encrypt(JSON.stringify([newKey].flat())) } : {}),
    });
    // Deleted since it was read: as if it had not been there.
    if (!after) throw apiNotFound('Channel');
    return { before, after };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A channel named '${merged.name}' exists.`, 'name', 'name_taken');
    throw error;
  }
}

export async function deleteChannel(db: Db, id: number): Promise<Channel> {
  const row = await deleteChannelById(db, id);
  if (!row) throw apiNotFound('Channel');
  return row;
}

export function modelView(row: Model) {
  const { pricing, limits } = row;
  const usd = (micros: number | undefined) => (micros === undefined ? undefined : micros / MICROS_PER_USD);
  const view = {
    id: row.id,
    owned_by: row.owned_by,
    ...tokenPricesView(pricing),
    tiers: pricing.tiers?.map((tier) => ({ above_prompt_tokens: tier.abovePromptTokens, ...tokenPricesView(tier) })),
    per_request: usd(pricing.perRequest),
    per_image: pricing.perImage ? Object.fromEntries(Object.entries(pricing.perImage).map(([k, v]) => [k, v / MICROS_PER_USD])) : undefined,
    per_audio_minute: usd(pricing.perAudioMinute),
    per_mchars: usd(pricing.perMillionChars),
    per_search: usd(pricing.perSearch),
    image_sizes: limits.imageSizes,
    max_images: limits.maxImages,
    max_prompt_chars: limits.maxPromptChars,
    free: row.free === 1,
    fallbacks: row.fallbacks,
    hedge_after_ms: limits.hedgeAfterMs,
    context_window: row.context_window ?? undefined,
    max_output_tokens: row.max_output_tokens ?? undefined,
    capabilities: limits.capabilities,
  };
  return withoutUndefined(view);
}

/** The fields that may be undefined become optional, and are left out when they are (the view shows only what is set). */
type DefinedFields<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

function withoutUndefined<T extends object>(view: T): DefinedFields<T> {
  return Object.fromEntries(Object.entries(view).filter(([, value]) => value !== undefined)) as DefinedFields<T>;
}

/** Every model, by id. */
export async function listModelViews(db: Db) {
  return (await listModels(db)).map(modelView);
}

/** Token prices back in the config file's names and USD, only those stated. */
function tokenPricesView(prices: TokenPrices): Partial<Record<TokenPriceConfigName, number>> {
  const view: Partial<Record<TokenPriceConfigName, number>> = {};
  for (const { config, key } of TOKEN_PRICE_FIELDS) {
    const micros = prices[key];
    if (micros !== undefined) view[config] = micros / MICROS_PER_USD;
  }
  return view;
}

/** Creates or replaces a model with its prices (PUT semantics: the body is the whole entry). */
export async function putModel(db: Db, input: ModelInput): Promise<{ before: Model | undefined; after: Model }> {
  const parsed = parseBody(modelConfigSchema, input);
  const before = await findModel(db, parsed.id);
  const after = await putModelById(db, parsed.id, modelRowFromConfig(parsed));
  return { before, after };
}

export async function deleteModel(db: Db, id: string): Promise<Model> {
  const row = await deleteModelById(db, id);
  if (!row) throw apiNotFound('Model');
  return row;
}

export function groupView(row: GroupRow) {
  return { id: row.id, name: row.name, ratio: row.ratio_ppm / 1_000_000, description: row.description, rpm_limit: row.rpm_limit, tpm_limit: row.tpm_limit };
}

/** Every group, by name. */
export async function listGroupViews(db: Db) {
  return (await listGroups(db)).map(groupView);
}

export async function putGroup(db: Db, input: GroupInput): Promise<{ before: GroupRow | undefined; after: GroupRow }> {
  const parsed = parseBody(groupConfigSchema, input);
  const before = await findGroupByName(db, parsed.name);
  const after = await putGroupByName(db, groupRowFromConfig(parsed));
  return { before, after };
}

export async function deleteGroup(db: Db, name: string): Promise<GroupRow> {
  if (name === 'default') throw conflict('The default group cannot be deleted.', 'name', 'group_required');
  if (await groupHasKeys(db, name)) throw conflict(`Keys use the group '${name}'; move them to another group first.`, 'name', 'group_in_use');
  const row = await deleteGroupByName(db, name);
  if (!row) throw apiNotFound('Group');
  return row;
}
