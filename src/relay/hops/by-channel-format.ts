// One call, several possible hops: each channel is served by the first hop that supports it, so a model
// served by OpenAI-format and Gemini channels alike can fail over between them.
// A class: the hop lives as long as the call (an open stream keeps it for a continuation), and prototype
// methods cost it nothing per call, where an object of arrow functions cost six closures and a context.
import type { RoutedChannel } from '../../routing/routing-table.ts';
import type { UpstreamErrorHeaders } from '../../hub/hub-format.ts';
import type { RelayHop, StreamConverter, UpstreamCallShape, WholeAnswer } from '../relay-hop.ts';
import type { GatewayError } from '../../gateway-errors.ts';
import type { AttemptUsage } from '../attempt-usage.ts';

const servesNothing: RelayHop = {
  supports: () => false,
  request: () => { throw new Error('unreachable'); },
  whole: () => { throw new Error('unreachable'); },
  error: () => { throw new Error('unreachable'); },
};

export function byChannelFormat(...hops: RelayHop[]): RelayHop {
  return new ByChannelFormatHop(hops);
}

class ByChannelFormatHop implements RelayHop {
  private readonly hops: RelayHop[];

  constructor(hops: RelayHop[]) {
    this.hops = hops;
  }

  // Index loops, not for-of or some(): asked several times a call, their iterators and closures were garbage.
  private hopFor(channel: RoutedChannel): RelayHop {
    const hop = this.servingHop(channel);
    if (hop === null) throw new Error(`No hop serves channel '${channel.name}' (${channel.type})`);
    return hop;
  }

  private servingHop(channel: RoutedChannel): RelayHop | null {
    const hops = this.hops;
    for (let i = 0; i < hops.length; i++) if (hops[i]!.supports(channel)) return hops[i]!;
    return null;
  }

  supports(channel: RoutedChannel): boolean {
    return this.servingHop(channel) !== null;
  }

  refusal(): GatewayError | null {
    const hops = this.hops;
    for (let i = 0; i < hops.length; i++) {
      const refusal = hops[i]!.refusal?.() ?? null;
      if (refusal !== null) return refusal;
    }
    return null;
  }

  request(channel: RoutedChannel, upstreamModel: string): UpstreamCallShape | Promise<UpstreamCallShape> {
    return this.hopFor(channel).request(channel, upstreamModel);
  }

  whole(text: string, channel: RoutedChannel, sent: UpstreamCallShape, usage: AttemptUsage): WholeAnswer {
    return this.hopFor(channel).whole(text, channel, sent, usage);
  }

  error(channel: RoutedChannel, status: number, text: string, headers?: UpstreamErrorHeaders): GatewayError {
    return this.hopFor(channel).error(channel, status, text, headers);
  }

  /** Each hop continues in its own way; one that cannot continue serves no channel for the continuation. */
  continuation(deliveredText: string): RelayHop {
    return new ByChannelFormatHop(this.hops.map((hop) => (hop.continuation ? hop.continuation(deliveredText) : servesNothing)));
  }

  stream(channel: RoutedChannel, sent: UpstreamCallShape, usage: AttemptUsage): StreamConverter {
    const hop = this.hopFor(channel);
    if (!hop.stream) throw new Error(`Channel '${channel.name}' cannot stream this endpoint`);
    return hop.stream(channel, sent, usage);
  }
}
