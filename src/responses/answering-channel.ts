// A hop that says which channel answered: whole or streamed, the callback runs before the answer goes to
// the client, so what depends on it (the record of a kept response, a warning header) is known in time.
import type { RelayHop } from '../relay/relay-hop.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';

// Delegates member by member: a hop can be a class instance, whose methods a spread would not copy.
export function noticingAnswers(hop: RelayHop, onAnswer: (channel: RoutedChannel) => void): RelayHop {
  return {
    supports: (channel) => hop.supports(channel),
    request: (channel, upstreamModel) => hop.request(channel, upstreamModel),
    error: (channel, status, text, headers) => hop.error(channel, status, text, headers),
    ...(hop.refusal ? { refusal: () => hop.refusal!() } : {}),
    ...(hop.continuation ? { continuation: (deliveredText: string) => hop.continuation!(deliveredText) } : {}),
    ...(hop.passBytes ? { passBytes: hop.passBytes } : {}),
    whole(text, channel, sent, usage) {
      onAnswer(channel);
      return hop.whole(text, channel, sent, usage);
    },
    stream(channel, sent, usage) {
      onAnswer(channel);
      return hop.stream!(channel, sent, usage);
    },
  };
}
