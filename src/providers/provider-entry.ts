// A channel type as the gateway registers it (issue 27, item 2): the provider, built from the channel's own
// settings, and those settings declared once, as a zod block. The config file's channel schema
// (src/config/channel-schema.ts), the admin API and its OpenAPI document, and the dashboard's channel form
// (which renders the JSON Schema GET /api/admin/channel-types publishes) are all derived from the block,
// so a new cloud provider is one provider file (plus its simulator and tests), not edits across layers.
import { z } from 'zod';
import type { ProviderDefinition, WireFormat } from './provider-definition.ts';

/** The fields a channel type adds to the common ones, as the config file writes them (snake_case). */
export type SettingsShape = Record<string, z.ZodType>;

/**
 * What a form shows for a setting, carried into its JSON Schema by zod's `.meta()`: a label (`title`), a
 * sentence (`description`), a placeholder (`examples[0]`), and `secret` for a value that is encrypted at
 * rest and never shown back (the form's "leave empty to keep").
 */
interface SettingMeta {
  title: string;
  description?: string;
  examples?: string[];
  secret?: boolean;
}

/** A setting's zod schema with what a form shows for it (see SettingMeta). */
export function setting<T extends z.ZodType>(schema: T, meta: SettingMeta): T {
  return schema.meta({ ...meta }) as T;
}

export interface ProviderEntry<Shape extends SettingsShape = SettingsShape> {
  type: string;
  /** The wire format of its chat, and the others a channel may choose with `chat_format` (OpenAI's Responses). */
  chatFormat: WireFormat;
  otherChatFormats?: readonly WireFormat[];
  /**
   * The channel fields this type adds, with their checks (absent: none). A field is required or optional
   * as its schema says; a field of another type's block on this type's channel is refused.
   */
  settings?: Shape;
  /** What the channel's api_key holds for this type (the form's label and help). */
  credential?: { label: string; description: string };
  /** What is wrong with the shape of one upstream credential (never quoting it), or null; checked on save. */
  credentialProblem?(apiKey: string): string | null;
  /** Set when the upstream has no default host, so a channel must give base_url: the message saying what to give. */
  needsBaseUrl?: string;
  /** A version path written at the end of base_url that the gateway appends itself (default `/v1`). */
  baseUrlVersionSuffix?: RegExp;
  /** The provider, from the channel's settings as `settings` parsed them. */
  create(settings: z.output<z.ZodObject<Shape>>): ProviderDefinition;
}

/** Declares a channel type whose provider is built from its settings (the type parameter checks `create`). */
export function defineProvider<Shape extends SettingsShape>(entry: ProviderEntry<Shape>): ProviderEntry {
  return entry as unknown as ProviderEntry;
}

/** A channel type without settings of its own: the provider is the same for every channel. */
export function fixedProvider(definition: ProviderDefinition, extra: Pick<ProviderEntry, 'credential' | 'credentialProblem' | 'baseUrlVersionSuffix'> = {}): ProviderEntry {
  return {
    type: definition.type,
    chatFormat: definition.chatFormat,
    ...(definition.otherChatFormats ? { otherChatFormats: definition.otherChatFormats } : {}),
    ...extra,
    create: () => definition,
  };
}

/** Whether a setting's schema is marked secret (through optional/default/nullable wrappers). */
export function isSecretSetting(schema: z.ZodType): boolean {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 8; depth++) {
    if ((current.meta() as SettingMeta | undefined)?.secret) return true;
    const inner = (current as { unwrap?: () => z.ZodType }).unwrap;
    if (typeof inner !== 'function' || !(current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable)) return false;
    current = inner.call(current);
  }
  return false;
}
