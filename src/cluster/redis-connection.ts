// Redis connections for several instances sharing one deployment: counters, limits and invalidations.
// Every key carries the deployment's prefix (REDIS_PREFIX), so gateways and tests can share one Redis.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisClientClass } from './load-ioredis.ts';

export interface RedisContext {
  redis: Redis;
  prefix: string;
  /** Runs a Lua script by its SHA, sending its source only when Redis does not know it yet. */
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
  const redis = new (redisClientClass())(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true, enableOfflineQueue: false, commandTimeout: 1000, lazyConnect: true });
  // ioredis reconnects by itself; the listener keeps a lost connection from being an unhandled error.
  redis.on('error', (error: Error) => process.emitWarning(`Redis: ${error.message}`));
  await redis.connect();
  const shas = new Map<string, string>();
  return {
    redis,
    prefix,
    // Plain EVALSHA/EVAL, never ioredis's defineCommand: a command defined while auto-pipelining has a
    // pipeline open is missing from that pipeline, which then answers the wrong callbacks and throws
    // `results[i] is not iterable` out of ioredis, killing the process (issue 10, item 1).
    async run(script, keys, args) {
      let sha = shas.get(script.source);
      if (!sha) {
        sha = createHash('sha1').update(script.source).digest('hex');
        shas.set(script.source, sha);
      }
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        // First use on this Redis, or Redis restarted / flushed its script cache: send the source once.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return redis.eval(script.source, keys.length, ...keys, ...args);
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
