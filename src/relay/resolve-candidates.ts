// Which channels may serve this key's request for a model, in the order to try them.
import { modelNotAllowed, modelNotFound, modelUnavailable } from '../gateway-errors.ts';
import type { CachedKey } from '../accounts/key-index.ts';
import type { RoutingTable, RoutedChannel } from '../routing/routing-table.ts';
import { orderCandidates } from '../routing/choose-channel.ts';

export function resolveCandidates(routing: RoutingTable, key: CachedKey, model: string): RoutedChannel[] {
  if (key.models && !key.models.has(model)) {
    throw routing.isServedAnywhere(model) ? modelNotAllowed(model) : modelNotFound(model);
  }
  const tiers = routing.tiers(key.groupName, model);
  if (tiers.length === 0) {
    // Its channels are switched off: it exists, but cannot answer now.
    if (routing.unavailableReason(key.groupName, model) !== null) throw modelUnavailable(model);
    // Served to another group: the caller may not use it. Served nowhere: it does not exist here.
    throw routing.isServedAnywhere(model) ? modelNotAllowed(model) : modelNotFound(model);
  }
  return orderCandidates(tiers);
}

/** The upstream's id for a requested model on a channel (model mapping), or the same id. */
export function upstreamModelFor(channel: RoutedChannel, model: string): string {
  return channel.modelMapping[model] ?? model;
}
