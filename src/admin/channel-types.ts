// The channel types for the dashboard's channel form, from the provider registry: each type's settings as
// the JSON Schema of its provider's zod block (zod's toJSONSchema, with each field's label, help,
// placeholder and secret mark), the chat formats a channel may choose, whether base_url is needed, and
// what its upstream key holds. The form renders fields from this alone, so a new type needs no dashboard code.
import { z } from 'zod';
import { providerEntries, type ProviderEntry } from '../providers/registry.ts';

interface ChannelTypeView {
  type: string;
  /** The chat formats a channel may be set to serve chat in, its own first (one: nothing to choose). */
  chat_formats: string[];
  /** The message when the type has no default host and base_url must be given; null otherwise. */
  needs_base_url: string | null;
  /** What the channel's api_key holds for this type; null for a plain key. */
  credential: { label: string; description: string } | null;
  /** JSON Schema (2020-12) of the type's own settings: an object whose properties are the config file's fields. */
  settings: Record<string, unknown>;
}

function settingsJsonSchema(entry: ProviderEntry): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(z.object(entry.settings ?? {}).strict(), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

export function channelTypesView(): ChannelTypeView[] {
  return providerEntries().map((entry) => ({
    type: entry.type,
    chat_formats: [entry.chatFormat, ...(entry.otherChatFormats ?? [])],
    needs_base_url: entry.needsBaseUrl ?? null,
    credential: entry.credential ?? null,
    settings: settingsJsonSchema(entry),
  }));
}
