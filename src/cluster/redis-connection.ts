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

export function connectRedis(url: string, prefix: string): RedisContext {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false });
  // ioredis reconnects by itself; the listener keeps a lost connection from being an unhandled error.
  redis.on('error', (error: Error) => process.emitWarning(`Redis: ${error.message}`));
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
