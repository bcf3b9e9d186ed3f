// Accounting shared by several instances: each wallet and key is a Redis hash {value} with a sorted set of
// live reservations, and every check-and-take runs as one Lua script, so instances cannot together overspend. A hash missing from
// Redis (first use, or Redis restarted) is seeded from the database, which lags by at most one flush.
import { randomUUID } from 'node:crypto';
import type { RedisContext, LuaScript } from '../cluster/redis-connection.ts';
import type { AccountLimits, Accounting, AccountingStore, Reservation } from './accounting.ts';

// Reservations are members "<id>:<amount>" of a sorted set per wallet and per key, scored by when they
// expire: a reservation whose settle never came (the instance died, Redis was unreachable at that moment)
// stops counting after RESERVATION_TTL_MS instead of holding the money back for ever.
const SUM_LIVE = `
local function live(key, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local total = 0
  for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    total = total + tonumber(string.match(member, ':(%d+)$'))
  end
  return total
end`;

// KEYS: wallet, key, wallet reservations, key reservations. ARGV: estimate, quota (-1 for none), now,
// expires at, member. Returns 1 taken, 0 wallet short, -1 quota short, -2 wallet unknown, -3 key unknown.
const reserveScript: LuaScript = {
  name: 'gatewayReserveExpiring',
  source: `${SUM_LIVE}
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
if redis.call('EXISTS', KEYS[2]) == 0 then return -3 end
local estimate = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local wallet = tonumber(redis.call('HGET', KEYS[1], 'value'))
local walletReserved = live(KEYS[3], now)
if wallet - walletReserved <= 0 or wallet - walletReserved < estimate then return 0 end
local keyReserved = live(KEYS[4], now)
if quota >= 0 then
  local used = tonumber(redis.call('HGET', KEYS[2], 'value'))
  if used + keyReserved >= quota or used + keyReserved + estimate > quota then return -1 end
end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
redis.call('PEXPIREAT', KEYS[3], ARGV[4])
redis.call('PEXPIREAT', KEYS[4], ARGV[4])
return 1`,
};

// KEYS: wallet, key, wallet reservations, key reservations. ARGV: member, cost.
const settleScript: LuaScript = {
  name: 'gatewaySettleExpiring',
  source: `
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'value', -tonumber(ARGV[2])) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HINCRBY', KEYS[2], 'value', tonumber(ARGV[2])) end
return 1`,
};

// KEYS: hash. ARGV: value. Seeds only when absent, so a value other instances moved is never overwritten.
const seedScript: LuaScript = {
  name: 'gatewaySeed',
  source: `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'value', ARGV[1]) end
return tonumber(redis.call('HGET', KEYS[1], 'value'))`,
};

export const DEFAULT_RESERVATION_TTL_MS = 3_600_000;

export function createRedisAccounting(context: RedisContext, store: AccountingStore, reservationTtlMs = DEFAULT_RESERVATION_TTL_MS): Accounting {
  const walletKey = (userId: number) => `${context.prefix}wallet:${userId}`;
  const quotaKey = (keyId: number) => `${context.prefix}keyspend:${keyId}`;
  const walletReservations = (userId: number) => `${context.prefix}wallet-resv:${userId}`;
  const keyReservations = (keyId: number) => `${context.prefix}key-resv:${keyId}`;
  const member = (reservation: Reservation) => `${reservation.id}:${reservation.amountMicros}`;
  const seedWallet = async (userId: number) => Number(await context.run(seedScript, [walletKey(userId)], [await store.loadBalance(userId)]));
  const seedKey = async (keyId: number) => Number(await context.run(seedScript, [quotaKey(keyId)], [await store.loadKeyUsed(keyId)]));
  const read = async (hash: string, seed: () => Promise<number>) => {
    const value = await context.redis.hget(hash, 'value');
    return value === null ? seed() : Number(value);
  };

  return {
    async reserve(limits: AccountLimits, estimate: number): Promise<Reservation | null> {
      const reservation: Reservation = { userId: limits.userId, keyId: limits.keyId, amountMicros: estimate, id: randomUUID() };
      const keys = [walletKey(limits.userId), quotaKey(limits.keyId), walletReservations(limits.userId), keyReservations(limits.keyId)];
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = Date.now();
        const args = [estimate, limits.keyQuotaMicros ?? -1, now, now + reservationTtlMs, member(reservation)];
        const outcome = Number(await context.run(reserveScript, keys, args));
        if (outcome === 1) return reservation;
        if (outcome === 0 || outcome === -1) return null;
        if (outcome === -2) await seedWallet(limits.userId);
        if (outcome === -3) await seedKey(limits.keyId);
      }
      return null;
    },
    async settle(reservation, cost) {
      const keys = [walletKey(reservation.userId), quotaKey(reservation.keyId), walletReservations(reservation.userId), keyReservations(reservation.keyId)];
      await context.run(settleScript, keys, [member(reservation), cost]);
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
