// Config entries (human units) → database column values (integer micro-USD, ppm ratios, JSON text).
// Only the columns the file controls; apply-config.ts adds ids, timestamps and secrets.
import type { ChannelConfig, ConfigFile, KeyConfig, ModelConfig } from './config-file-schema.ts';
import { usdToMicros, type ModelPricing, type TokenPrices } from '../metering/pricing.ts';
import { TOKEN_PRICE_FIELDS, type TokenPriceConfigName } from '../metering/price-fields.ts';
import { normalizeBaseUrl } from './normalize-base-url.ts';
import { getProviderEntry } from '../providers/registry.ts';
import { settingsOfType, type ChannelEdit } from './channel-schema.ts';
import { takeSecrets, type SecretSettings } from '../providers/provider-secrets.ts';
import { channelChatFormat } from '../routing/channel-chat-format.ts';
import { invalidRequest } from '../gateway-errors.ts';

type GroupConfig = ConfigFile['groups'][number];
type UserConfig = ConfigFile['users'][number];

export function groupRowFromConfig(group: GroupConfig) {
  return {
    name: group.name,
    ratio_ppm: Math.round(group.ratio * 1_000_000),
    description: group.description ?? null,
    rpm_limit: group.rpm_limit ?? null,
    tpm_limit: group.tpm_limit ?? null,
  };
}

/**
 * `sealSecrets` encrypts the settings the type's block marks secret (src/providers/provider-secrets.ts): they
 * are stored apart from the others, in settings_json's providerSecrets.
 */
export function channelRowFromConfig(channel: ChannelEdit, sealSecrets: (secret: SecretSettings) => string) {
  checkChatFormat(channel);
  const { open: provider, secret } = takeSecrets(getProviderEntry(channel.type), settingsOfType(channel.type, channel));
  return {
    name: channel.name,
    type: channel.type,
    // A trailing /v1 (/v1beta for Gemini) is dropped: the gateway appends the version itself (start-up warns).
    base_url: normalizeBaseUrl(channel.type, channel.base_url ?? '').baseUrl,
    models_json: JSON.stringify(channel.models),
    model_mapping_json: JSON.stringify(channel.model_mapping),
    groups_json: JSON.stringify(channel.groups),
    priority: channel.priority,
    weight: channel.weight,
    status: channel.enabled ? 'enabled' as const : 'disabled' as const,
    settings_json: JSON.stringify({
      ...(channel.timeouts ? { timeouts: camelTimeouts(channel.timeouts) } : {}),
      ...(channel.supports_prefill !== undefined ? { supportsPrefill: channel.supports_prefill } : {}),
      ...(channel.chat_format !== undefined ? { chatFormat: channel.chat_format } : {}),
      ...(channel.unsupported_endpoints?.length ? { unsupportedEndpoints: [...new Set(channel.unsupported_endpoints)] } : {}),
      // Three states: true, false (HTTP/1.1 only), and absent (null or left out: undici's default).
      ...(typeof channel.http2 === 'boolean' ? { http2: channel.http2 } : {}),
      ...(typeof channel.responses_websocket === 'boolean' ? { responsesWebSocket: channel.responses_websocket } : {}),
      // The type's own settings, as its provider's block declares them (src/providers/*).
      ...(Object.keys(provider).length > 0 ? { provider } : {}),
      ...(secret ? { providerSecrets: sealSecrets(secret) } : {}),
    }),
  };
}

/** A chat format the channel's type cannot serve chat in is refused (400 from the admin API, a start-up error from the file). */
function checkChatFormat(channel: ChannelEdit): void {
  try {
    channelChatFormat(getProviderEntry(channel.type), channel.chat_format);
  } catch (error) {
    throw invalidRequest(`Channel '${channel.name}': ${(error as Error).message}.`, 'chat_format', 'invalid_value');
  }
}

function camelTimeouts(timeouts: NonNullable<ChannelConfig['timeouts']>) {
  return {
    connectMs: timeouts.connect_ms,
    headersMs: timeouts.headers_ms,
    firstTokenMs: timeouts.first_token_ms,
    idleMs: timeouts.idle_ms,
  };
}

/** The token prices a model or a tier states, USD per Mtok → micro-USD per Mtok; those it leaves out stay out. */
function tokenPricesFromConfig(prices: Partial<Record<TokenPriceConfigName, number>>): TokenPrices {
  const stored: TokenPrices = {};
  for (const { config, key } of TOKEN_PRICE_FIELDS) {
    const usd = prices[config];
    if (usd !== undefined) stored[key] = usdToMicros(usd);
  }
  return stored;
}

export function modelRowFromConfig(model: ModelConfig) {
  const micros = (usd: number | undefined) => (usd === undefined ? undefined : usdToMicros(usd));
  const pricing: ModelPricing = {
    ...tokenPricesFromConfig(model),
    // Ascending, so the cost picks the last tier the prompt is above.
    tiers: model.tiers ? [...model.tiers].sort((a, b) => a.above_prompt_tokens - b.above_prompt_tokens)
      .map((tier) => ({ abovePromptTokens: tier.above_prompt_tokens, ...tokenPricesFromConfig(tier) })) : undefined,
    perRequest: micros(model.per_request),
    perImage: model.per_image ? Object.fromEntries(Object.entries(model.per_image).map(([key, usd]) => [key, usdToMicros(usd)])) : undefined,
    perAudioMinute: micros(model.per_audio_minute),
    perMillionChars: micros(model.per_mchars),
    perSearch: micros(model.per_search),
  };
  return {
    owned_by: model.owned_by,
    pricing_json: JSON.stringify(pricing),
    free: model.free ? 1 : 0,
    fallbacks_json: JSON.stringify(model.fallbacks),
    limits_json: JSON.stringify({
      ...(model.image_sizes ? { imageSizes: model.image_sizes } : {}),
      ...(model.max_images ? { maxImages: model.max_images } : {}),
      ...(model.max_prompt_chars ? { maxPromptChars: model.max_prompt_chars } : {}),
      ...(model.hedge_after_ms !== undefined ? { hedgeAfterMs: model.hedge_after_ms } : {}),
      ...(model.capabilities ? { capabilities: model.capabilities } : {}),
    }),
    context_window: model.context_window ?? null,
    max_output_tokens: model.max_output_tokens ?? null,
  };
}

export function userRowFromConfig(user: UserConfig) {
  return {
    name: user.name,
    email: user.email ?? null,
    role: user.role,
    status: user.enabled ? 'active' as const : 'disabled' as const,
    rpm_limit: user.rpm_limit ?? null,
    tpm_limit: user.tpm_limit ?? null,
  };
}

export function keyRowFromConfig(key: KeyConfig) {
  const expires = key.expires_at === undefined ? null : new Date(key.expires_at).getTime();
  return {
    name: key.name,
    group_name: key.group,
    models_json: key.models ? JSON.stringify(key.models) : null,
    mcp_tools_json: key.mcp_tools ? JSON.stringify(key.mcp_tools) : null,
    quota_micros: key.quota === undefined ? null : usdToMicros(key.quota),
    expires_at: expires,
    ip_allowlist_json: key.ip_allowlist ? JSON.stringify(key.ip_allowlist) : null,
    status: key.enabled ? 'active' as const : 'disabled' as const,
    rpm_limit: key.rpm_limit ?? null,
    tpm_limit: key.tpm_limit ?? null,
  };
}
