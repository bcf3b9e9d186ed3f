// ioredis (~2.5 MB of heap, ~6 MB resident) is loaded when the first Redis connection is made: a single
// instance without REDIS_URL never needs it. It is CommonJS, so a synchronous require keeps the callers'
// code as it was.
import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

export function redisClientClass(): typeof import('ioredis').Redis {
  return (requireModule('ioredis') as typeof import('ioredis')).Redis;
}
