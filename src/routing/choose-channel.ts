// Channel choice: the highest priority tier first, weighted random within it; upstream keys in turn.
import type { PriorityTiers, RoutedChannel } from './routing-table.ts';

/** Orders every candidate for one request: tiers by priority, each tier shuffled by weight. */
export function orderCandidates(tiers: PriorityTiers, random: () => number = Math.random): RoutedChannel[] {
  const ordered: RoutedChannel[] = [];
  // An index loop, not for-of: this runs for every call, and its iterator was garbage.
  for (let t = 0; t < tiers.length; t++) {
    const tier = tiers[t]!;
    if (tier.length === 1) {
      ordered.push(tier[0]!);
      continue;
    }
    const remaining = tier.slice();
    while (remaining.length > 0) {
      const index = pickWeighted(remaining, random);
      ordered.push(remaining[index]!);
      remaining.splice(index, 1);
    }
  }
  return ordered;
}

function pickWeighted(channels: RoutedChannel[], random: () => number): number {
  const total = channels.reduce((sum, channel) => sum + channel.weight, 0);
  // All weights zero: treat the tier as equal shares rather than never choosing it.
  if (total <= 0) return Math.floor(random() * channels.length);
  let point = random() * total;
  for (let i = 0; i < channels.length; i++) {
    point -= channels[i]!.weight;
    if (point < 0) return i;
  }
  return channels.length - 1;
}

const keyCursor = new WeakMap<RoutedChannel, number>();

/** The channel's upstream keys are used in turn, one per request. */
export function nextUpstreamKey(channel: RoutedChannel): string {
  const cursor = keyCursor.get(channel) ?? 0;
  keyCursor.set(channel, cursor + 1);
  return channel.apiKeys[cursor % channel.apiKeys.length]!;
}
