// The declarative config file (YAML or JSON): groups, channels, models with prices, users and keys.
// Human units here (USD, ratios as decimals); src/config/apply-config.ts converts to integer micro-USD.
import { modelCapabilitiesSchema } from './model-capabilities.ts';
import { z } from 'zod';
import { isValidCidr } from '../accounts/ip-allowlist.ts';
import { operations } from '../providers/provider-definition.ts';
import { providerTypes } from '../providers/registry.ts';
import { formatNames, type FormatName } from '../formats/index.ts';
import { MAX_AMOUNT_USD } from '../metering/money-bounds.ts';
import { looksLikeGatewayKey } from '../accounts/api-key-format.ts';
import { mcpServerSchema, mcpToolEntry } from './mcp-server-schema.ts';

const name = z.string().trim().min(1).max(128);
const usd = z.number().finite().nonnegative();
/** Balances and quotas: bounded so they stay exact integers of micro-USD (src/metering/money-bounds.ts). */
const usdAmount = usd.max(MAX_AMOUNT_USD, `must be at most ${MAX_AMOUNT_USD} USD`);
const cidr = z.string().refine(isValidCidr, { message: 'not an IPv4 or IPv6 address or CIDR (e.g. 10.0.0.0/8, ::1/128)' });

const groupSchema = z.object({
  name,
  ratio: z.number().finite().nonnegative().default(1),
  description: z.string().optional(),
  rpm_limit: z.number().int().positive().optional(),
  tpm_limit: z.number().int().positive().optional(),
}).strict();

/** A channel's fields; `channelSchema` adds the checks across fields (zod cannot .partial() a refined object). */
export const channelObjectSchema = z.object({
  name,
  type: z.enum(providerTypes),
  base_url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://api.openai.com' }).optional(),
  /** One key, or several used in turn. */
  api_key: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  models: z.array(z.string().min(1)).min(1),
  model_mapping: z.record(z.string(), z.string().min(1)).default({}),
  groups: z.array(name).min(1).default(['default']),
  priority: z.number().int().default(0),
  weight: z.number().int().min(0).default(1),
  enabled: z.boolean().default(true),
  /** The upstream continues a trailing assistant message (Anthropic; vLLM's continue_final_message). */
  supports_prefill: z.boolean().optional(),
  /** AWS region of a `bedrock` channel (us-east-1, eu-central-1, …): its endpoint and signing scope. */
  region: z.string().regex(/^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/, 'must be an AWS region such as us-east-1').optional(),
  /**
   * The wire format the channel serves chat in, when not its type's own: 'openai-responses' for an OpenAI
   * channel whose models answer only on /v1/responses (chat clients are then translated to it).
   */
  chat_format: z.enum(formatNames as [FormatName, ...FormatName[]]).optional(),
  /**
   * Endpoints the upstream lacks although its type has them (an OpenAI-compatible server without
   * /v1/responses): such calls go to other channels, or are translated (Responses → chat, state kept by
   * the gateway) instead of being sent here.
   */
  unsupported_endpoints: z.array(z.enum(operations)).max(operations.length).optional(),
  /**
   * Speak HTTP/2 to the upstream: many calls share one connection (10,000 streams take 100 sockets, not
   * 10,000). https: h2 asked for first by ALPN, HTTP/1.1 if the server does not offer it; http: h2c with
   * prior knowledge, so the server must speak h2c. `false`: HTTP/1.1 only (ALPN offers http/1.1 alone), for
   * upstreams or proxies that misbehave on h2. Absent, or null (how an admin API PATCH clears it): undici's
   * default, HTTP/1.1 to http origins and h2 or HTTP/1.1 by the https server's choice.
   */
  http2: z.boolean().nullable().optional(),
  timeouts: z.object({
    connect_ms: z.number().int().positive().optional(),
    headers_ms: z.number().int().positive().optional(),
    first_token_ms: z.number().int().positive().optional(),
    idle_ms: z.number().int().positive().optional(),
  }).strict().optional(),
  // ── Cloud channels (issue 17): each type's own settings block ──
  /** type azure-openai: api_key is the resource's key, or a JSON {tenant_id, client_id, client_secret} for Entra ID. */
  azure: z.object({
    api_version: z.string().regex(/^\d{4}-\d{2}-\d{2}(?:-preview)?$/, 'an api-version such as 2024-10-21 or 2025-04-01-preview').optional(),
    /** deployments: /openai/deployments/{deployment}/…?api-version=…; v1: /openai/v1/… (model = deployment). */
    path_style: z.enum(['deployments', 'v1']).optional(),
    /** Entra ID authority, default https://login.microsoftonline.com (sovereign clouds). */
    entra_authority: z.url({ protocol: /^https?$/ }).optional(),
  }).strict().optional(),
  /** type vertex: api_key is the service-account JSON key. */
  vertex: z.object({
    project: z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/, 'a Google Cloud project id (lowercase letters, digits and hyphens)'),
    /** A region such as us-central1, or global. */
    location: z.string().regex(/^(?:global|[a-z]+-[a-z]+\d+)$/, 'a Vertex AI location such as us-central1, europe-west4 or global'),
    /** Google's token endpoint, default https://oauth2.googleapis.com/token. */
    token_url: z.url({ protocol: /^https?$/ }).optional(),
  }).strict().optional(),
}).strict();

/** The checks across a channel's fields: the cloud types' required settings (issue 17). */
export function checkCloudChannel(channel: { type?: string | undefined; base_url?: string | undefined; azure?: unknown; vertex?: unknown }, context: z.RefinementCtx): void {
  if (channel.type === 'azure-openai' && !channel.base_url) context.addIssue({ code: 'custom', path: ['base_url'], message: 'an azure-openai channel needs base_url: its resource endpoint, such as https://my-resource.openai.azure.com' });
  if (channel.type === 'vertex' && !channel.vertex) context.addIssue({ code: 'custom', path: ['vertex'], message: 'a vertex channel needs vertex.project and vertex.location' });
  if (channel.azure && channel.type !== 'azure-openai') context.addIssue({ code: 'custom', path: ['azure'], message: 'azure settings belong to an azure-openai channel' });
  if (channel.vertex && channel.type !== 'vertex') context.addIssue({ code: 'custom', path: ['vertex'], message: 'vertex settings belong to a vertex channel' });
}

const channelSchema = channelObjectSchema.superRefine(checkCloudChannel);

/** Token prices in USD per million tokens; a model states them, and a long-context tier states them again. */
const tokenPrices = {
  input_per_mtok: usd.optional(),
  cached_input_per_mtok: usd.optional(),
  cache_write_per_mtok: usd.optional(),
  /** One-hour cache writes (Anthropic's ttl "1h", on Bedrock and Vertex too); unset: cache_write_per_mtok. */
  cache_write_1h_per_mtok: usd.optional(),
  output_per_mtok: usd.optional(),
  reasoning_per_mtok: usd.optional(),
};

/** Prices for a call whose prompt (cached and cache-write tokens included) is longer than above_prompt_tokens. */
const priceTierSchema = z.object({
  above_prompt_tokens: z.number().int().positive(),
  ...tokenPrices,
}).strict();

const priceTiersSchema = z.array(priceTierSchema).max(16).refine(
  (tiers) => new Set(tiers.map((tier) => tier.above_prompt_tokens)).size === tiers.length,
  { message: 'each tier needs its own above_prompt_tokens' },
);

const modelSchema = z.object({
  id: z.string().min(1),
  owned_by: z.string().min(1).default('system'),
  ...tokenPrices,
  /** Long-context prices, e.g. [{ above_prompt_tokens: 200000, input_per_mtok: 2.5, output_per_mtok: 15 }]. */
  tiers: priceTiersSchema.optional(),
  per_request: usd.optional(),
  /** USD per image by "size/quality", "size" or "*", e.g. { "1024x1024": 0.04, "1024x1024/hd": 0.08 }. */
  per_image: z.record(z.string(), usd).optional(),
  per_audio_minute: usd.optional(),
  per_mchars: usd.optional(),
  per_search: usd.optional(),
  /** Image models: the sizes accepted, largest n, and the longest prompt in characters. */
  image_sizes: z.array(z.string().regex(/^\d+x\d+$|^auto$/)).optional(),
  max_images: z.number().int().positive().optional(),
  max_prompt_chars: z.number().int().positive().optional(),
  free: z.boolean().default(false),
  fallbacks: z.array(z.string().min(1)).default([]),
  /** Hedge: with no first byte after this long, the next route starts too and the first to answer wins; 0 turns it off. */
  hedge_after_ms: z.number().int().min(0).optional(),
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  /** What the model supports (src/config/model-capabilities.ts): parameters it lacks are dropped or refused. */
  capabilities: modelCapabilitiesSchema.optional(),
}).strict();

const userSchema = z.object({
  name,
  email: z.email().optional(),
  password: z.string().min(8).optional(),
  role: z.enum(['user', 'admin']).default('user'),
  /** USD; on first creation only, so restarts do not reset a balance that has since moved. */
  balance: usdAmount.default(0),
  enabled: z.boolean().default(true),
  rpm_limit: z.number().int().positive().optional(),
  tpm_limit: z.number().int().positive().optional(),
}).strict();

const keySchema = z.object({
  name,
  /** A key that could never authenticate (the gateway only accepts its own key shape) is a mistake, not a key. */
  key: z.string().refine(looksLikeGatewayKey, { message: 'can never authenticate: a gateway key is sk- followed by 40 to 128 letters or digits (omit key: to have one generated)' }).optional(),
  user: name,
  group: name.default('default'),
  models: z.array(z.string().min(1)).optional(),
  /** MCP tools the key may list and call (server__tool, server__*); absent: every tool its group sees. */
  mcp_tools: z.array(mcpToolEntry).max(1_000).optional(),
  quota: usdAmount.optional(),
  expires_at: z.union([z.iso.datetime({ offset: true }), z.date()]).optional(),
  ip_allowlist: z.array(cidr).optional(),
  enabled: z.boolean().default(true),
  rpm_limit: z.number().int().positive().optional(),
  tpm_limit: z.number().int().positive().optional(),
}).strict();

/** Sign-in with an identity provider (docs/accounts-and-admin.md#identity-providers-and-passkeys); upserted by slug. */
const identityProviderSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes'),
  kind: z.enum(['oidc', 'github']),
  name: z.string().min(1).max(100),
  issuer: z.url({ protocol: /^https?$/ }).max(500).optional(),
  client_id: z.string().min(1).max(500),
  client_secret: z.string().min(1).max(2000),
  scopes: z.string().min(1).max(500).optional(),
  enabled: z.boolean().default(true),
}).strict().refine((value) => value.kind !== 'oidc' || value.issuer !== undefined, { message: 'is required for OpenID Connect', path: ['issuer'] });

export const configFileSchema = z.object({
  groups: z.array(groupSchema).default([]),
  channels: z.array(channelSchema).default([]),
  models: z.array(modelSchema).default([]),
  users: z.array(userSchema).default([]),
  keys: z.array(keySchema).default([]),
  identity_providers: z.array(identityProviderSchema).default([]),
  /** Upstream MCP servers the gateway's /mcp fronts (docs/mcp.md). */
  mcp_servers: z.array(mcpServerSchema).default([]),
}).strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
export type ChannelConfig = z.infer<typeof channelSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
export type KeyConfig = z.infer<typeof keySchema>;
