// Redis connections for several instances sharing one deployment: counters, limits and invalidations.
// Every key carries the deployment's prefix (REDIS_PREFIX), so gateways and tests can share one Redis.
import { Redis } from 'ioredis';

export interface RedisContext {
  redis: Redis;
  prefix: string;
  /** Runs a Lua script by its SHA, loading it once per connection. */
  run(script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown>;
  close(): Promise<void>;
}

export interface LuaScript { name: string; source: string }

/**
 * Connects and waits until Redis is ready. Commands then fail fast while the connection is down (no
 * offline queue) or when Redis does not answer within a second, so requests get a prompt 503 instead of
 * waiting; ioredis keeps reconnecting in the background.
 */
export async function connectRedis(url: string, prefix: string): Promise<RedisContext> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true, enableOfflineQueue: false, commandTimeout: 1000, lazyConnect: true });
  // ioredis reconnects by itself; the listener keeps a lost connection from being an unhandled error.
  redis.on('error', (error: Error) => process.emitWarning(`Redis: ${error.message}`));
  await redis.connect();
  const defined = new Set<string>();
  return {
    redis,
    prefix,
    run(script, keys, args) {
      if (!defined.has(script.name)) {
        redis.defineCommand(script.name, { lua: script.source });
        defined.add(script.name);
      }
      const command = (redis as unknown as Record<string, (...params: (string | number)[]) => Promise<unknown>>)[script.name]!;
      return command.call(redis, keys.length, ...keys, ...args);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
