// Which wire format a channel's chat is served in: its provider's own, or another the provider declares
// it can serve chat in (`otherChatFormats`), chosen per channel by its `chat_format` setting.
import type { FormatName } from '../formats/index.ts';
import type { ProviderDefinition } from '../providers/provider-definition.ts';

/** What a channel type declares about its chat formats (its provider entry, or the provider it built). */
type ChatFormats = Pick<ProviderDefinition, 'type' | 'chatFormat' | 'otherChatFormats'>;

/** The formats a channel of this provider may be set to serve chat in; its own first. */
export function chatFormatsOf(provider: ChatFormats): FormatName[] {
  return [provider.chatFormat, ...(provider.otherChatFormats ?? [])];
}

/** The channel's chat format; throws (the channel is then left out with the reason) for one its type cannot serve. */
export function channelChatFormat(provider: ChatFormats, chosen: string | undefined): FormatName {
  if (chosen === undefined) return provider.chatFormat;
  const allowed = chatFormatsOf(provider);
  const format = allowed.find((candidate) => candidate === chosen);
  if (!format) throw new Error(`chat_format '${chosen}' is not one a '${provider.type}' channel serves chat in (${allowed.join(', ')})`);
  return format;
}
