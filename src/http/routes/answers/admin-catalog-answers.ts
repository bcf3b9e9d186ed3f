// What the /api/admin routes of admin-catalog-routes.ts answer: channels (never their upstream keys), channel
// types, models with their prices (USD, only those stated), groups, and the registration and mail settings.
import { z } from 'zod';
import { modelCapabilitiesSchema } from '../../../config/model-capabilities.ts';
import { listOf, rowId, tokenPriceAnswers, usdPrice } from './common-answers.ts';
import { channelStatus, isoTime } from './admin-answers.ts';

const ms = z.number().nonnegative();

/**
 * A channel (src/admin/admin-catalog.ts channelView), in the config file's shape; the type's own settings
 * (Bedrock's region, Azure's azure block, …) are further keys, as its channel type's schema describes them.
 */
export const channelAnswer = z.looseObject({
  id: rowId,
  name: z.string(),
  type: z.string(),
  base_url: z.string().optional(),
  models: z.array(z.string()),
  /** Client model id → the upstream's. */
  model_mapping: z.record(z.string(), z.string()),
  groups: z.array(z.string()),
  priority: z.number().int(),
  weight: z.number().int(),
  enabled: z.boolean(),
  status: channelStatus,
  status_reason: z.string().nullable(),
  /** Whether the upstream continues an assistant prefill; absent: the type's default. */
  supports_prefill: z.boolean().optional(),
  /** The format chat is sent in, for types that offer several. */
  chat_format: z.string().optional(),
  /** Endpoints the upstream lacks although its type has them. */
  unsupported_endpoints: z.array(z.string()).optional(),
  /** true: HTTP/2 to the upstream; false: HTTP/1.1 only; absent: automatic. */
  http2: z.boolean().optional(),
  /** Responses WebSocket turns over the upstream's own WebSocket; absent: the type's default. */
  responses_websocket: z.boolean().optional(),
  timeouts: z.object({ connect_ms: ms.optional(), headers_ms: ms.optional(), first_token_ms: ms.optional(), idle_ms: ms.optional() }).optional(),
  updated_at: isoTime,
});
export const channelsAnswer = listOf(channelAnswer);

/** Each channel type and its own settings, for the channel form (src/admin/channel-types.ts). */
export const channelTypesAnswer = listOf(z.object({
  type: z.string(),
  /** The chat formats a channel may serve chat in, its own first. */
  chat_formats: z.array(z.string()),
  /** The message when base_url must be given; null otherwise. */
  needs_base_url: z.string().nullable(),
  /** What the channel's api_key holds for this type; null for a plain key. */
  credential: z.object({ label: z.string(), description: z.string() }).nullable(),
  /** JSON Schema (2020-12) of the type's own settings. */
  settings: z.record(z.string(), z.unknown()),
}));

/** POST /api/admin/channels/:id/test: ok false carries the upstream's status (null: no answer) and error. */
export const channelTestAnswer = z.object({
  channel: z.string(),
  model: z.string(),
  ok: z.boolean(),
  status: z.number().int().nullable(),
  latency_ms: z.number().int().nonnegative(),
  error: z.string().nullable(),
  reenabled: z.boolean(),
});
export const channelDeletedAnswer = z.object({ id: rowId, deleted: z.literal(true) });

const usd = usdPrice;
const tokenPrices = tokenPriceAnswers;

/** A model and its prices (src/admin/admin-catalog.ts modelView): the config file's shape, without the fields not set. */
export const modelAnswer = z.object({
  id: z.string(),
  owned_by: z.string(),
  ...tokenPrices,
  tiers: z.array(z.object({ above_prompt_tokens: z.number().int().positive(), ...tokenPrices })).optional(),
  per_request: usd.optional(),
  per_image: z.record(z.string(), usd).optional(),
  per_audio_minute: usd.optional(),
  per_mchars: usd.optional(),
  per_search: usd.optional(),
  image_sizes: z.array(z.string()).optional(),
  max_images: z.number().int().positive().optional(),
  max_prompt_chars: z.number().int().positive().optional(),
  free: z.boolean(),
  fallbacks: z.array(z.string()),
  hedge_after_ms: z.number().int().nonnegative().optional(),
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  capabilities: z.object(modelCapabilitiesSchema.shape).optional(),
});
export const modelsAnswer = listOf(modelAnswer);
export const modelDeletedAnswer = z.object({ id: z.string(), deleted: z.literal(true) });

export const groupAnswer = z.object({
  id: rowId,
  name: z.string(),
  /** The price ratio (1: list prices). */
  ratio: z.number().positive(),
  description: z.string().nullable(),
  rpm_limit: z.number().int().positive().nullable(),
  tpm_limit: z.number().int().positive().nullable(),
});
export const groupsAnswer = listOf(groupAnswer);
export const groupDeletedAnswer = z.object({ name: z.string(), deleted: z.literal(true) });

const mailTransport = z.enum(['smtp', 'file']);

/** GET and PUT /api/admin/settings: the SMTP URL only as set or not, and its host. */
export const settingsAnswer = z.object({
  registration: z.object({ mode: z.enum(['open', 'closed', 'domains']), domains: z.array(z.string()) }),
  /** The groups users may pick for their own keys. */
  self_service_groups: z.array(z.string()),
  pricing_page: z.object({ enabled: z.boolean() }),
  mail: z.object({
    transport: mailTransport,
    smtp_url_set: z.boolean(),
    smtp_host: z.string().nullable(),
    /** Set when the runtime SMTP URL cannot be decrypted (GATEWAY_SECRET changed): set it again. */
    smtp_error: z.string().nullable(),
    smtp_source: z.enum(['runtime', 'env', 'none']),
    from: z.string(),
    from_source: z.enum(['runtime', 'env']),
    public_url: z.string(),
  }),
});

/** Whether the test mail was sent, or the SMTP error (without the URL's secrets). */
export const testMailAnswer = z.discriminatedUnion('sent', [
  z.object({ sent: z.literal(true), transport: mailTransport }),
  z.object({ sent: z.literal(false), error: z.string(), transport: mailTransport }),
]);
