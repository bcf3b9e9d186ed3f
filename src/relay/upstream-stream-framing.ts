// The seam between an upstream stream's framing and the relay: the channel's format declares its framing
// (FormatConverters.streamFraming), which says which content type a stream answer has and which pump
// decodes it. SSE is the default; Bedrock's ConverseStream is a binary AWS event stream.
import type { StreamFraming } from '../hub/hub-format.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { createAwsEventStreamPump } from './aws-event-stream-pump.ts';
import type { StreamConverter } from './relay-hop.ts';
import { createSsePump, type SsePump } from './sse-pump.ts';

const CONTENT_TYPES: Record<StreamFraming, string> = {
  'sse': 'text/event-stream',
  'aws-event-stream': 'application/vnd.amazon.eventstream',
};

function streamFramingOf(channel: RoutedChannel): StreamFraming {
  return channel.chatFormat.streamFraming ?? 'sse';
}

/** Whether the answer is a stream in the channel's framing (an error or a whole answer is read as text). */
export function isUpstreamStream(channel: RoutedChannel, contentType: unknown): boolean {
  return String(contentType ?? '').toLowerCase().includes(CONTENT_TYPES[streamFramingOf(channel)]);
}

export function createUpstreamPump(channel: RoutedChannel, chunks: AsyncIterable<Buffer>, converter: StreamConverter, onMalformed: (error: Error) => void): SsePump {
  return streamFramingOf(channel) === 'aws-event-stream' ? createAwsEventStreamPump(chunks, converter, onMalformed) : createSsePump(chunks, converter, onMalformed);
}
