// Tells every instance that keys, users, groups, channels or models changed, so each reloads its
// in-memory snapshot. Over Redis pub/sub when several instances run; in-process otherwise.
import { redisClientClass } from './load-ioredis.ts';

export interface InvalidationEvent {
  /** What changed: reload the snapshot, and forget cached money for these ids. */
  reason: string;
  userIds?: number[];
  keyIds?: number[];
}

/** Applies a change on this instance at once, then tells the others. */
export type AnnounceChange = (event: InvalidationEvent) => Promise<void>;

export interface InvalidationBus {
  publish(event: InvalidationEvent): Promise<void>;
  subscribe(handler: (event: InvalidationEvent) => void): void;
  close(): Promise<void>;
}

export function createLocalInvalidationBus(): InvalidationBus {
  const handlers: ((event: InvalidationEvent) => void)[] = [];
  return {
    async publish(event) {
      for (const handler of handlers) handler(event);
    },
    subscribe: (handler) => void handlers.push(handler),
    async close() {},
  };
}

export async function createRedisInvalidationBus(url: string, prefix: string): Promise<InvalidationBus> {
  const channel = `${prefix}invalidate`;
  const publisher = new (redisClientClass())(url, { maxRetriesPerRequest: 2 });
  const subscriber = new (redisClientClass())(url, { maxRetriesPerRequest: 2 });
  const handlers: ((event: InvalidationEvent) => void)[] = [];
  for (const connection of [publisher, subscriber]) connection.on('error', (error: Error) => process.emitWarning(`Redis: ${error.message}`));
  subscriber.on('message', (_channel: string, message: string) => {
    const event = JSON.parse(message) as InvalidationEvent;
    for (const handler of handlers) handler(event);
  });
  await subscriber.subscribe(channel);
  return {
    // Every instance, this one included, hears its own message and reloads through the same path.
    async publish(event) {
      // This instance has already applied the change; if Redis is away the others pick it up at their
      // periodic reload (SNAPSHOT_RELOAD_MS), so a failed publish is reported, not thrown at the admin.
      await publisher.publish(channel, JSON.stringify(event)).catch((error: unknown) => process.emitWarning(`Redis publish failed: ${(error as Error).message}`));
    },
    subscribe: (handler) => void handlers.push(handler),
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
