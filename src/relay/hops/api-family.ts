// Whether a channel speaks the dialect of a format's API family on the endpoints beside chat (embeddings,
// images, audio, uploads, realtime, count-tokens): decided by the families the formats declare, so no hop
// names a format.
import type { FormatConverters } from '../../hub/hub-format.ts';
import { getFormat } from '../../formats/index.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';

export function speaksFamilyOf(channel: RoutedChannel, format: FormatConverters): boolean {
  return getFormat(channel.provider.chatFormat).apiFamily === format.apiFamily;
}
