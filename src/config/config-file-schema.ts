// The declarative config file (YAML or JSON): groups, channels (channel-schema.ts), models with prices, users and keys.
// Human units here (USD, ratios as decimals); src/config/apply-config.ts converts to integer micro-USD.
import { modelCapabilitiesSchema } from './model-capabilities.ts';
import { z } from 'zod';
import { isValidCidr } from '../accounts/ip-allowlist.ts';
import { channelSchemas } from './channel-schema.ts';
import { hasAtMostDecimals, MAX_AMOUNT_USD } from '../metering/money-bounds.ts';
import { looksLikeGatewayKey } from '../accounts/api-key-format.ts';
import { mcpServerSchema, mcpToolEntry } from './mcp-server-schema.ts';

const name = z.string().trim().min(1).max(128);
const usd = z.number().finite().nonnegative();
/** Balances and quotas: bounded so they stay exact integers of micro-USD (src/metering/money-bounds.ts). */
const usdAmount = usd.max(MAX_AMOUNT_USD, `must be at most ${MAX_AMOUNT_USD} USD`);
const cidr = z.string().refine(isValidCidr, { message: 'not an IPv4 or IPv6 address or CIDR (e.g. 10.0.0.0/8, ::1/128)' });

/**
 * A group's price ratio, the one rule for the config file, the admin API and the dashboard (issue 31): more
 * than 0, at most 100, exact to a millionth (stored in parts per million). There are no free groups, in the
 * file either: a model is made free with its own `free: true`, which the catalogue and pricing page show.
 */
const MAX_GROUP_RATIO = 100;
const groupRatio = z.number().finite()
  .gt(0, 'must be more than 0 (there are no free groups; mark a model free instead)')
  .max(MAX_GROUP_RATIO, `must be at most ${MAX_GROUP_RATIO}`)
  .refine((ratio) => hasAtMostDecimals(ratio, 6), 'must be exact to a millionth (at most 6 decimals)');

const groupSchema = z.object({
  name,
  ratio: groupRatio.default(1),
  description: z.string().optional(),
  rpm_limit: z.number().int().positive().optional(),
  tpm_limit: z.number().int().positive().optional(),
}).strict();

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
  // Lazy: the channel schema follows the provider registry, which start-up code may extend (registerProvider).
  channels: z.array(z.lazy(() => channelSchemas().channel)).default([]),
  models: z.array(modelSchema).default([]),
  users: z.array(userSchema).default([]),
  keys: z.array(keySchema).default([]),
  identity_providers: z.array(identityProviderSchema).default([]),
  /** Upstream MCP servers the gateway's /mcp fronts (docs/mcp.md). */
  mcp_servers: z.array(mcpServerSchema).default([]),
}).strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
export type { ChannelConfig } from './channel-schema.ts';
export type ModelConfig = z.infer<typeof modelSchema>;
export type KeyConfig = z.infer<typeof keySchema>;
