// Accounting shared by several instances: each wallet and key is a Redis hash {value, reserved}, and every
// check-and-take runs as one Lua script, so instances cannot together overspend. A hash missing from
// Redis (first use, or Redis restarted) is seeded from the database, which lags by at most one flush.
import type { RedisContext, LuaScript } from '../cluster/redis-connection.ts';
import type { AccountLimits, Accounting, AccountingStore, Reservation } from './accounting.ts';

// KEYS: wallet, key. ARGV: estimate, quota (-1 for none). Returns 1 taken, 0 wallet short, -1 quota short,
// -2 wallet unknown, -3 key unknown.
const reserveScript: LuaScript = {
  name: 'gatewayReserve',
  source: `
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
if redis.call('EXISTS', KEYS[2]) == 0 then return -3 end
local estimate = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local wallet = tonumber(redis.call('HGET', KEYS[1], 'value'))
local walletReserved = tonumber(redis.call('HGET', KEYS[1], 'reserved'))
if wallet - walletReserved <= 0 or wallet - walletReserved < estimate then return 0 end
if quota >= 0 then
  local used = tonumber(redis.call('HGET', KEYS[2], 'value'))
  local keyReserved = tonumber(redis.call('HGET', KEYS[2], 'reserved'))
  if used + keyReserved >= quota or used + keyReserved + estimate > quota then return -1 end
end
redis.call('HINCRBY', KEYS[1], 'reserved', estimate)
redis.call('HINCRBY', KEYS[2], 'reserved', estimate)
return 1`,
};

// KEYS: wallet, key. ARGV: reserved amount, cost.
const settleScript: LuaScript = {
  name: 'gatewaySettle',
  source: `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'reserved', -tonumber(ARGV[1]))
  redis.call('HINCRBY', KEYS[1], 'value', -tonumber(ARGV[2]))
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HINCRBY', KEYS[2], 'reserved', -tonumber(ARGV[1]))
  redis.call('HINCRBY', KEYS[2], 'value', tonumber(ARGV[2]))
end
return 1`,
};

// KEYS: hash. ARGV: value. Seeds only when absent, so a value other instances moved is never overwritten.
const seedScript: LuaScript = {
  name: 'gatewaySeed',
  source: `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'value', ARGV[1], 'reserved', 0) end
return tonumber(redis.call('HGET', KEYS[1], 'value'))`,
};

export function createRedisAccounting(context: RedisContext, store: AccountingStore): Accounting {
  const walletKey = (userId: number) => `${context.prefix}wallet:${userId}`;
  const quotaKey = (keyId: number) => `${context.prefix}keyspend:${keyId}`;
  const seedWallet = async (userId: number) => Number(await context.run(seedScript, [walletKey(userId)], [await store.loadBalance(userId)]));
  const seedKey = async (keyId: number) => Number(await context.run(seedScript, [quotaKey(keyId)], [await store.loadKeyUsed(keyId)]));
  const read = async (hash: string, seed: () => Promise<number>) => {
    const value = await context.redis.hget(hash, 'value');
    return value === null ? seed() : Number(value);
  };

  return {
    async reserve(limits: AccountLimits, estimate: number): Promise<Reservation | null> {
      const keys = [walletKey(limits.userId), quotaKey(limits.keyId)];
      const args = [estimate, limits.keyQuotaMicros ?? -1];
      for (let attempt = 0; attempt < 3; attempt++) {
        const outcome = Number(await context.run(reserveScript, keys, args));
        if (outcome === 1) return { userId: limits.userId, keyId: limits.keyId, amountMicros: estimate };
        if (outcome === 0 || outcome === -1) return null;
        if (outcome === -2) await seedWallet(limits.userId);
        if (outcome === -3) await seedKey(limits.keyId);
      }
      return null;
    },
    async settle(reservation, cost) {
      await context.run(settleScript, [walletKey(reservation.userId), quotaKey(reservation.keyId)], [reservation.amountMicros, cost]);
    },
    async credit(userId, amount) {
      // Absent: the database already holds the credit and will seed it; present: add it.
      const hash = walletKey(userId);
      if (await context.redis.exists(hash)) await context.redis.hincrby(hash, 'value', amount);
    },
    balance: (userId) => read(walletKey(userId), () => seedWallet(userId)),
    keyUsed: (keyId) => read(quotaKey(keyId), () => seedKey(keyId)),
    async forget({ userId, keyId }) {
      if (userId !== undefined) await context.redis.del(walletKey(userId));
      if (keyId !== undefined) await context.redis.del(quotaKey(keyId));
    },
    async close() {},
  };
}
