// The JSON text columns (`*_json`, schema.ts), each read by one zod-checked parser. A repository turns a row
// into its domain value with them, once, when it reads the row: no caller parses a column or guesses its
// shape, and a column read in several shapes (limits_json: image limits, hedging, capabilities, kind) has
// one schema that names them all. Writers still store JSON.stringify of the same shapes.
import { z } from 'zod';
import { modelCapabilitiesSchema } from '../config/model-capabilities.ts';
import type { ModelPricing } from '../metering/model-pricing.ts';

/** A stored value that does not have its column's shape is an error naming the row and the column, never a guess. */
export function parseJsonColumn<T>(schema: z.ZodType<T>, text: string, where: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${where} is not valid JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${where} does not have its column's shape: ${issue.path.join('.') || '(value)'}: ${issue.message}`);
  }
  return parsed.data;
}

// Objects are read with z.object (unknown keys dropped, not refused): a key an older version wrote must
// not make a row unreadable.

export const stringListColumn = z.array(z.string());

export const stringMapColumn = z.record(z.string(), z.string());

/** mcp_servers.settings_json: what a server's entry sets besides its address, groups, price and credential. */
export const mcpServerSettingsColumn = z.object({
  timeoutMs: z.number().optional(),
  rpmLimit: z.number().optional(),
  logPayloads: z.boolean().optional(),
  allowPrivateNetwork: z.boolean().optional(),
});

export type McpServerSettings = z.infer<typeof mcpServerSettingsColumn>;

const tokenPrices = {
  inputPerMtok: z.number().optional(),
  cachedInputPerMtok: z.number().optional(),
  cacheWritePerMtok: z.number().optional(),
  cacheWrite1hPerMtok: z.number().optional(),
  outputPerMtok: z.number().optional(),
  reasoningPerMtok: z.number().optional(),
};

/** models.pricing_json: micro-USD per unit (src/metering/model-pricing.ts). */
export const modelPricingColumn = z.object({
  ...tokenPrices,
  tiers: z.array(z.object({ abovePromptTokens: z.number(), ...tokenPrices })).optional(),
  perRequest: z.number().optional(),
  perImage: z.record(z.string(), z.number()).optional(),
  perAudioMinute: z.number().optional(),
  perMillionChars: z.number().optional(),
  perSearch: z.number().optional(),
}) satisfies z.ZodType<ModelPricing>;

/** models.limits_json: what the config file's model entry declares beyond prices (config-to-rows.ts). */
export const modelLimitsColumn = z.object({
  imageSizes: z.array(z.string()).optional(),
  maxImages: z.number().optional(),
  maxPromptChars: z.number().optional(),
  /** 0: never hedge this model; absent: the gateway's HEDGE_AFTER_MS. */
  hedgeAfterMs: z.number().optional(),
  capabilities: z.object(modelCapabilitiesSchema.shape).optional(),
});

export type ModelLimits = z.infer<typeof modelLimitsColumn>;

/** channels.settings_json: the common channel settings, the type's own (`provider`) and its sealed secrets. */
export const channelSettingsColumn = z.object({
  timeouts: z.object({
    connectMs: z.number().optional(),
    headersMs: z.number().optional(),
    firstTokenMs: z.number().optional(),
    idleMs: z.number().optional(),
  }).optional(),
  supportsPrefill: z.boolean().optional(),
  chatFormat: z.string().optional(),
  unsupportedEndpoints: z.array(z.string()).optional(),
  http2: z.boolean().optional(),
  /** Responses WebSocket turns over the upstream's own WebSocket (true/false); absent: the type's default. */
  responsesWebSocket: z.boolean().optional(),
  /** The type's own settings, as its provider's block declares them (src/providers/*), without the secret ones. */
  provider: z.record(z.string(), z.unknown()).optional(),
  /** The settings the type marks secret, sealed (src/providers/provider-secrets.ts). */
  providerSecrets: z.string().optional(),
});

export type ChannelSettings = z.infer<typeof channelSettingsColumn>;

/** One attempt as usage_logs.attempts_json records it (src/relay/relay-types.ts's AttemptRecord). */
const loggedAttemptColumn = z.object({
  model: z.string().optional(),
  channel: z.string(),
  status: z.number().nullable(),
  outcome: z.string().optional(),
  error: z.string().nullable(),
  code: z.string().optional(),
  ms: z.number().optional(),
});

type LoggedAttempt = z.infer<typeof loggedAttemptColumn>;

/**
 * usage_logs.attempts_json, read leniently: the log is history, so a row an older version wrote in another
 * shape loses its unreadable attempts (or all of them: null), never the page that lists it.
 */
export function loggedAttemptsOf(json: string | null): LoggedAttempt[] | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  return value.flatMap((item) => {
    const attempt = loggedAttemptColumn.safeParse(item);
    return attempt.success ? [attempt.data] : [];
  });
}

// users.settings_json: the user's own preferences and the notifier's bookkeeping. Loose objects (keys kept)
// because a save writes the whole value back; a part in another shape is dropped, never the user's page.
const userNotificationPreferences = z.looseObject({
  low_balance_usd: z.number().nullable().optional(),
  key_expiry_days: z.number().nullable().optional(),
});

const userPreferencesColumn = z.looseObject({
  profile: z.looseObject({ name: z.string().optional() }).optional().catch(undefined),
  notifications: userNotificationPreferences.optional().catch(undefined),
  sidebar: z.object({ order: z.array(z.string()), hidden: z.array(z.string()) }).optional().catch(undefined),
});

export type UserPreferences = z.infer<typeof userPreferencesColumn>;

/** users.settings_json, read leniently: text that is not a JSON object reads as no preferences ({}). */
export function userPreferencesOf(json: string): UserPreferences {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {};
  }
  const parsed = userPreferencesColumn.safeParse(value);
  return parsed.success ? parsed.data : {};
}

// settings.value_json: one schema per setting the gateway reads (getSetting takes it). Objects a write
// merges into are loose, so a key this version does not know survives the next save.

export const maxTopUpSettingColumn = z.number();

export const mailSettingColumn = z.looseObject({ smtp_url_encrypted: z.string().optional(), from: z.string().optional() });

export const pricingPageSettingColumn = z.object({ enabled: z.boolean() });

export const registrationSettingColumn = z.object({ mode: z.enum(['open', 'closed', 'domains']), domains: z.array(z.string()) });

export const signinDomainsSettingColumn = z.looseObject({ domains: z.array(z.string()).optional(), providers: z.array(z.string()).optional() });
