// Shares circuit-breaker transitions between instances over Redis pub/sub: when one instance opens a
// channel's circuit, the others skip that channel too, and the first successful probe anywhere closes it.
import { redisClientClass } from './load-ioredis.ts';
import type { CircuitBreakers } from '../routing/circuit-breaker.ts';

interface Transition { instance: string; channelId: number; state: 'open' | 'closed'; at: number }

export async function shareCircuitBreakers(breakers: CircuitBreakers, url: string, prefix: string, instance: string): Promise<() => Promise<void>> {
  const channel = `${prefix}breakers`;
  const publisher = new (redisClientClass())(url, { maxRetriesPerRequest: 2 });
  const subscriber = new (redisClientClass())(url, { maxRetriesPerRequest: 2 });
  for (const connection of [publisher, subscriber]) connection.on('error', (error: Error) => process.emitWarning(`Redis: ${error.message}`));
  subscriber.on('message', (_channel: string, message: string) => {
    let transition: Transition;
    try {
      transition = JSON.parse(message) as Transition;
    } catch {
      return; // not ours: another writer on the same channel name
    }
    if (transition.instance === instance || typeof transition.channelId !== 'number') return;
    if (transition.state === 'open') breakers.forceOpen(transition.channelId, transition.at);
    else breakers.forceClose(transition.channelId);
  });
  await subscriber.subscribe(channel);
  breakers.onTransition = (channelId, state, at) => {
    void publisher.publish(channel, JSON.stringify({ instance, channelId, state, at } satisfies Transition)).catch(() => {});
  };
  return async () => {
    breakers.onTransition = undefined;
    await subscriber.quit().catch(() => subscriber.disconnect());
    await publisher.quit().catch(() => publisher.disconnect());
  };
}
