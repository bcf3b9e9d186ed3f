// A channel's fields, in the config file's shape: the common ones (name, type, keys, models, routing,
// timeouts) declared here, and each type's own settings declared by its provider (src/providers/*: Azure's
// `azure:` block, Vertex's `vertex:`, Bedrock's `region`). The schema is derived from the provider registry,
// and rebuilt when a type is registered at run time, so the config file, the admin API (and its OpenAPI
// document) and the dashboard's form accept exactly the registered types and their settings.
import { z } from 'zod';
import { operations } from '../providers/provider-definition.ts';
import { getProviderEntry, providerEntries, providerRegistryGeneration, providerTypes } from '../providers/registry.ts';
import { formatNames } from '../formats/index.ts';
import type { SettingsShape } from '../providers/provider-entry.ts';

const name = z.string().trim().min(1).max(128);

/** The fields every channel has, whatever its type. */
const commonFields = {
  name,
  /** One of the registered channel types (src/providers/registry.ts); replaced by the enum of them when built. */
  type: z.string(),
  base_url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://api.openai.com' }).optional(),
  /** One key, or several used in turn. */
  api_key: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  models: z.array(z.string().min(1)).min(1),
  model_mapping: z.record(z.string(), z.string().min(1)).default({}),
  groups: z.array(name).min(1).default(['default']),
  // The dashboard's channel form holds the same bounds: a number it would refuse is refused here too.
  priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  weight: z.number().int().min(0).max(1_000_000).default(1),
  enabled: z.boolean().default(true),
  /** The upstream continues a trailing assistant message (Anthropic; vLLM's continue_final_message). */
  supports_prefill: z.boolean().optional(),
  /**
   * The wire format the channel serves chat in, when not its type's own: 'openai-responses' for an OpenAI
   * channel whose models answer only on /v1/responses (chat clients are then translated to it).
   */
  chat_format: z.string().optional(),
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
  /**
   * Turns of the gateway's Responses WebSocket mode (GET /v1/responses with Upgrade, Codex's built-in
   * provider) go over the upstream's own Responses WebSocket, one per client connection: on by default for
   * the openai type (OpenAI speaks it); `false` for an OpenAI-compatible server that does not (streamed POSTs
   * then, without the refused handshake first); `true` for another type's upstream that does. Null clears it.
   */
  responses_websocket: z.boolean().nullable().optional(),
  timeouts: z.object({
    connect_ms: z.number().int().positive().optional(),
    headers_ms: z.number().int().positive().optional(),
    first_token_ms: z.number().int().positive().optional(),
    idle_ms: z.number().int().positive().optional(),
  }).strict().optional(),
};

type CommonChannel = z.output<z.ZodObject<typeof commonFields>>;
/** A type's own settings, as its provider's block declares them (src/providers/*). */
type TypeSettings = { [setting: string]: unknown };
/** A channel as the config file and the admin API give it: the common fields and its type's own settings. */
export type ChannelConfig = CommonChannel & TypeSettings;
/** A channel being edited: the stored upstream keys are kept unless new ones are given. */
export type ChannelEdit = Omit<CommonChannel, 'api_key'> & { api_key?: CommonChannel['api_key'] } & TypeSettings;

interface ChannelSchemas {
  /** A whole channel (config file entries, POST /api/admin/channels). */
  channel: z.ZodType<ChannelConfig>;
  /** A whole channel whose upstream keys may be left out (the stored channel merged with a PATCH). */
  edit: z.ZodType<ChannelEdit>;
  /** The body of a PATCH: every field optional and no defaults, each checked on its own. */
  patch: z.ZodType<Partial<ChannelEdit>>;
}

/** Every type's settings fields by name; a field several types declare accepts either type's value here. */
function providerFields(): Record<string, z.ZodType> {
  const fields: Record<string, z.ZodType> = {};
  for (const entry of providerEntries()) {
    for (const [field, schema] of Object.entries(entry.settings ?? {})) {
      const existing = fields[field];
      fields[field] = existing ? z.union([existing, schema]) : schema;
    }
  }
  return Object.fromEntries(Object.entries(fields).map(([field, schema]) => [field, schema.optional()]));
}

/** The types whose block declares a field, for the message when another type's channel carries it. */
function ownersOf(field: string): string[] {
  return providerEntries().filter((entry) => Object.hasOwn(entry.settings ?? {}, field)).map((entry) => entry.type);
}

/** The channel's own settings, as its type's block declares them (fields left out stay out). */
export function settingsOfType(type: string, channel: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const field of Object.keys(getProviderEntry(type).settings ?? {})) {
    if (channel[field] !== undefined) settings[field] = channel[field];
  }
  return settings;
}

/**
 * The checks across a channel's fields, from its type's entry: its block's required fields and rules, no
 * other type's settings, a base_url when the type has no default host, the shape of its upstream keys.
 */
function checkTypeSettings(channel: Record<string, unknown>, context: z.RefinementCtx): void {
  if (typeof channel.type !== 'string' || !providerTypes().includes(channel.type)) return;
  const entry = getProviderEntry(channel.type);
  if (entry.needsBaseUrl && !channel.base_url) context.addIssue({ code: 'custom', path: ['base_url'], message: entry.needsBaseUrl });
  const own: SettingsShape = entry.settings ?? {};
  const block = z.object(own).safeParse(settingsOfType(channel.type, channel));
  if (!block.success) {
    for (const issue of block.error.issues) {
      const missing = issue.code === 'invalid_type' && issue.input === undefined && issue.message.startsWith('Invalid input');
      const message = missing ? `a ${channel.type} channel needs ${issue.path.join('.')}` : issue.message;
      context.addIssue({ code: 'custom', path: issue.path, message });
    }
  }
  for (const [field, value] of Object.entries(channel)) {
    if (value === undefined || Object.hasOwn(commonFields, field) || Object.hasOwn(own, field)) continue;
    context.addIssue({ code: 'custom', path: [field], message: `${field} settings belong to a ${ownersOf(field).join(' or ')} channel` });
  }
  const check = entry.credentialProblem;
  if (check && channel.api_key !== undefined) {
    const keys = [channel.api_key as string | string[]].flat();
    keys.forEach((key, i) => {
      const problem = check(key);
      if (problem) context.addIssue({ code: 'custom', path: Array.isArray(channel.api_key) ? ['api_key', i] : ['api_key'], message: problem });
    });
  }
}

let built: { generation: number; schemas: ChannelSchemas } | undefined;

/** The channel schemas for the types registered now (built once, and again after a registration). */
export function channelSchemas(): ChannelSchemas {
  const generation = providerRegistryGeneration();
  if (built?.generation === generation) return built.schemas;
  const object = z.object({
    ...commonFields,
    type: z.enum(providerTypes() as [string, ...string[]]),
    chat_format: z.enum(formatNames as [string, ...string[]]).optional(),
    ...providerFields(),
  }).strict();
  const patchShape = Object.fromEntries(Object.entries(object.shape)
    .map(([field, schema]) => [field, (schema instanceof z.ZodDefault ? schema.unwrap() as z.ZodType : schema as z.ZodType).optional()]));
  const schemas: ChannelSchemas = {
    channel: object.superRefine(checkTypeSettings) as unknown as z.ZodType<ChannelConfig>,
    edit: object.partial({ api_key: true }).superRefine(checkTypeSettings) as unknown as z.ZodType<ChannelEdit>,
    patch: z.object(patchShape).strict() as unknown as z.ZodType<Partial<ChannelEdit>>,
  };
  built = { generation, schemas };
  return schemas;
}
