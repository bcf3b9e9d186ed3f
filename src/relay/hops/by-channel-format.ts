// One call, several possible hops: each channel is served by the first hop that supports it, so a model
// served by OpenAI-format and Gemini channels alike can fail over between them.
import type { RoutedChannel } from '../../routing/routing-table.ts';
import type { RelayHop } from '../relay-hop.ts';

const servesNothing: RelayHop = {
  supports: () => false,
  request: () => { throw new Error('unreachable'); },
  whole: () => { throw new Error('unreachable'); },
  error: () => { throw new Error('unreachable'); },
};

export function byChannelFormat(...hops: RelayHop[]): RelayHop {
  const hopFor = (channel: RoutedChannel): RelayHop => {
    const hop = hops.find((candidate) => candidate.supports(channel));
    if (!hop) throw new Error(`No hop serves channel '${channel.name}' (${channel.type})`);
    return hop;
  };
  return {
    supports: (channel) => hops.some((hop) => hop.supports(channel)),
    request: (channel, upstreamModel) => hopFor(channel).request(channel, upstreamModel),
    whole: (text, channel) => hopFor(channel).whole(text, channel),
    error: (channel, status, text, headers) => hopFor(channel).error(channel, status, text, headers),
    // Each hop continues in its own way; one that cannot continue serves no channel for the continuation.
    continuation: (deliveredText) => byChannelFormat(...hops.map((hop) => (hop.continuation ? hop.continuation(deliveredText) : servesNothing))),
    stream: (channel) => {
      const hop = hopFor(channel);
      if (!hop.stream) throw new Error(`Channel '${channel.name}' cannot stream this endpoint`);
      return hop.stream(channel);
    },
  };
}
