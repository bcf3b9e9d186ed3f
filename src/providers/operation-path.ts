// The path of an operation on a channel, for hops that have already checked the channel supports it.
import type { Operation } from './provider-definition.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';

export function operationPath(channel: RoutedChannel, operation: Operation, upstreamModel: string): string {
  const path = channel.provider.path(operation, upstreamModel);
  if (path === null) throw new Error(`Channel '${channel.name}' (${channel.type}) does not support ${operation}`);
  return path;
}

/** Whether the channel serves the operation: its type has it, and the channel did not declare it missing. */
export function supportsOperation(channel: RoutedChannel, operation: Operation): boolean {
  return channel.provider.path(operation, 'model') !== null && channel.unsupportedOperations?.has(operation) !== true;
}
