// Member caps shared by several instances: per member and month a Redis hash {spent} and a sorted set of
// live holds scored by their expiry (as the wallet's reservations), checked and taken by one Lua script.
// A counter Redis does not hold yet is seeded from the usage log (HSETNX, so concurrent seeds agree); it
// lives 40 days, past the end of its month.
import { randomUUID } from 'node:crypto';
import type { LuaScript, RedisContext } from '../cluster/redis-connection.ts';
import { capCounterName, monthStart, type MemberCaps, type MonthSpendLoader } from './member-caps.ts';

const COUNTER_TTL_MS = 40 * 86_400_000;

// KEYS: spent hash, holds. ARGV: estimate, cap, now, hold expiry, member, ttl ms. 1 taken, 0 refused, -2 unknown.
const reserveCapScript: LuaScript = {
  name: 'gatewayMemberCapReserve',
  source: `
if redis.call('HEXISTS', KEYS[1], 'spent') == 0 then return -2 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
local held = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  held = held + tonumber(string.match(member, ':(%d+)$'))
end
local used = tonumber(redis.call('HGET', KEYS[1], 'spent')) + held
local estimate = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
if used >= cap or used + estimate > cap then return 0 end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 1`,
};

// KEYS: spent hash, holds. ARGV: member, cost (a decimal string, for HINCRBY).
const settleCapScript: LuaScript = {
  name: 'gatewayMemberCapSettle',
  source: `
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[2] ~= '0' and redis.call('HEXISTS', KEYS[1], 'spent') == 1 then redis.call('HINCRBY', KEYS[1], 'spent', ARGV[2]) end
return 1`,
};

export function createRedisMemberCaps(context: RedisContext, load: MonthSpendLoader, holdTtlMs: number): MemberCaps {
  const spentKey = (counter: string) => `${context.prefix}member-cap:${counter}`;
  const holdsKey = (counter: string) => `${context.prefix}member-cap-holds:${counter}`;
  const seed = async (counter: string, walletUserId: number, memberUserId: number, now: number) => {
    const spent = await load(walletUserId, memberUserId, monthStart(now));
    await context.redis.hsetnx(spentKey(counter), 'spent', String(spent));
    await context.redis.pexpire(spentKey(counter), COUNTER_TTL_MS);
  };
  return {
    async reserve(cap, estimate, now = Date.now()) {
      const counter = capCounterName(cap, now);
      const member = `${randomUUID()}:${estimate}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        const outcome = Number(await context.run(reserveCapScript, [spentKey(counter), holdsKey(counter)], [String(estimate), String(cap.capMicros), now, now + holdTtlMs, member, COUNTER_TTL_MS]));
        if (outcome === 1) return { counter, amountMicros: estimate, member };
        if (outcome === 0) return null;
        await seed(counter, cap.walletUserId, cap.memberUserId, now);
      }
      return null;
    },
    async settle(hold, cost) {
      await context.run(settleCapScript, [spentKey(hold.counter), holdsKey(hold.counter)], [hold.member ?? '', String(cost)]);
    },
    async spent(cap, now = Date.now()) {
      const counter = capCounterName(cap, now);
      const value = await context.redis.hget(spentKey(counter), 'spent');
      if (value !== null) return Number(value);
      await seed(counter, cap.walletUserId, cap.memberUserId, now);
      return Number(await context.redis.hget(spentKey(counter), 'spent') ?? 0);
    },
  };
}
