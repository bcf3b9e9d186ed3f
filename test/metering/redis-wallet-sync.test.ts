// Redis accounting against a database it reads through a store: the rebuilt wallet is always the database
// less the charges applied in Redis and not yet written, also when a metering write stops part-way, when a
// grant overlaps a first use, and after this instance's heartbeat lapsed.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { connectRedis, type RedisContext } from '../../src/cluster/redis-connection.ts';
import { createRedisAccounting, type RedisAccounting } from '../../src/metering/redis-accounting.ts';
import type { DurableCharge } from '../../src/metering/accounting.ts';
import { testRedisPrefix } from '../helpers/test-postgres.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const database = { balance: 0, used: 0 };
let context: RedisContext;
let accounting: RedisAccounting;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
});

beforeEach(async () => {
  await accounting?.close();
  await context?.close();
  prefix = testRedisPrefix();
  context = await connectRedis(REDIS_URL, prefix);
  database.balance = 1000;
  database.used = 0;
  accounting = await createRedisAccounting(context, { loadBalance: async () => database.balance, loadKeyUsed: async () => database.used }, 60_000, 60_000);
});

afterAll(async () => {
  await accounting?.close();
  await context?.close();
  const leftovers = await redis.keys('gwtest:*');
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

const limits = { userId: 1, keyId: 1, keyQuotaMicros: null };
async function settled(cost: number): Promise<DurableCharge> {
  const reservation = (await accounting.reserve(limits, 50))!;
  await accounting.settle(reservation, cost);
  return { userId: 1, keyId: 1, chargeMicros: cost, reservation };
}
/** A metering write that commits the first `done` charges to the "database", then fails. */
const writeStoppingAfter = (charges: DurableCharge[], done: number) => async () => {
  for (const charge of charges.slice(0, done)) {
    database.balance -= charge.chargeMicros;
    database.used += charge.chargeMicros;
  }
  if (done < charges.length) throw Object.assign(new Error('database went away'), { done });
};

it('rebuilds the wallet as the database less unwritten charges, across a write that stopped part-way', async () => {
  const first = await settled(100);
  const second = await settled(100);
  expect(await accounting.balance(1)).toBe(800);
  const batch = [first, second];
  await expect(accounting.writeCharges(batch, writeStoppingAfter(batch, 1))).rejects.toThrow('database went away');
  expect(database.balance).toBe(900);
  // The first charge is in the database now, the second only in Redis.
  expect(await accounting.sync.reconcile('w:1', false)).toBe(800);
  expect(await accounting.sync.reconcile('k:1', false)).toBe(200);
  await accounting.writeCharges([second], writeStoppingAfter([second], 1));
  expect(await accounting.sync.reconcile('w:1', false)).toBe(800);
  expect(database.balance).toBe(800);
});

it('counts a grant once, whether or not Redis held the wallet when it was written', async () => {
  await accounting.changeWallet(1, 500, async () => {
    database.balance += 500;
  });
  expect(await accounting.balance(1)).toBe(1500);
  await accounting.changeWallet(1, 250, async () => {
    database.balance += 250;
  });
  expect(await accounting.balance(1)).toBe(1750);
  expect(await accounting.sync.reconcile('w:1', false)).toBe(1750);
});

it('puts its pending charges back when its heartbeat lapsed and another instance swept them', async () => {
  await settled(100);
  expect(await accounting.balance(1)).toBe(900);
  // As another instance would after this one stalled past its TTL: its records are dropped, the wallet rebuilt.
  await redis.del(`${prefix}inst-alive:${accounting.sync.instanceId}`, `${prefix}inst-pending:${accounting.sync.instanceId}`);
  expect(await accounting.sync.reconcile('w:1', false)).toBe(1000);
  await accounting.sync.maintain();
  expect(await accounting.balance(1)).toBe(900);
});
