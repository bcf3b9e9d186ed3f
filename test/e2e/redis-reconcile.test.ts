// After an instance is killed (kill -9) with charges applied in Redis but not yet written to the database,
// Redis's wallet is rebuilt to agree with the database, while another live instance's charges still in
// flight are kept: once that instance has written them too, Redis and the database agree to the micro-dollar.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY = testKey('reconcileuser');

describe.each([{ engine: 'SQLite' }, { engine: 'PostgreSQL' }])('Redis wallet after a crash, on $engine', ({ engine }) => {
  let upstream: OpenAISimulator;
  let postgres: TestPostgres | undefined;
  let redis: Redis;
  let prefix: string;
  let dir: string;
  const processes: GatewayProcess[] = [];

  beforeAll(async () => {
    upstream = await startOpenAISimulator({ apiKey: 'k' });
    postgres = engine === 'PostgreSQL' ? await createTestPostgres() : undefined;
    redis = new Redis(REDIS_URL);
    prefix = testRedisPrefix();
    dir = await mkdtemp(join(tmpdir(), 'gateway-reconcile-'));
  });

  afterAll(async () => {
    for (const gateway of processes) gateway.child.kill('SIGKILL');
    await postgres?.drop();
    await upstream?.close();
    const leftovers = await redis.keys(`${prefix}*`);
    if (leftovers.length > 0) await redis.del(...leftovers);
    await redis.quit();
    await rm(dir, { recursive: true, force: true });
  });

  const databaseUrl = () => postgres?.url ?? `sqlite:${join(dir, 'g.db')}`;
  const start = async (flushIntervalMs: number) => {
    const gateway = await startGatewayProcess(dir, {
      channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'k', models: ['m'] }],
      models: [{ id: 'm', input_per_mtok: 1000, output_per_mtok: 1000 }],
      users: [{ name: 'rex', balance: 20 }],
      keys: [{ name: 'k', key: KEY, user: 'rex' }],
    }, { DATABASE_URL: databaseUrl(), REDIS_URL, REDIS_PREFIX: prefix, REDIS_INSTANCE_TTL_MS: '2000', FLUSH_INTERVAL_MS: String(flushIntervalMs) });
    processes.push(gateway);
    return gateway;
  };
  const calls = async (gateway: GatewayProcess, count: number) => {
    for (let i = 0; i < count; i++) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: `question ${i}` }] }),
      });
      expect(response.status).toBe(200);
    }
  };
  const books = async () => {
    const database = await openDatabase(databaseUrl());
    try {
      const user = await database.db.selectFrom('users').select('balance_micros').where('name', '=', 'rex').executeTakeFirstOrThrow();
      const logs = await database.db.selectFrom('usage_logs').select('cost_micros').execute();
      return { balance: user.balance_micros, calls: logs.length, charged: logs.reduce((sum, log) => sum + log.cost_micros, 0) };
    } finally {
      await database.close();
    }
  };
  const redisWallet = async () => Number(await redis.hget(`${prefix}wallet:1`, 'value'));
  /** Every call so far has been settled in Redis (its reservation is gone). */
  const allSettled = async () => {
    const deadline = Date.now() + 10_000;
    while ((await redis.zcard(`${prefix}wallet-resv:1`)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  const registered = async (count: number) => {
    const deadline = Date.now() + 10_000;
    while ((await redis.scard(`${prefix}instances`)) !== count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return redis.scard(`${prefix}instances`);
  };

  it('rebuilds the wallet from the database after kill -9, keeping a live instance\'s unwritten charges', { timeout: 60_000 }, async () => {
    // A writes its charges at once; B and the doomed C hold theirs unwritten for five seconds.
    const a = await start(50);
    await calls(a, 3);
    const [b, c] = await Promise.all([start(5000), start(5000)]);
    await Promise.all([calls(b, 4), calls(c, 5)]);
    await allSettled();
    c.child.kill('SIGKILL');
    await c.exited;
    // Redis is below the database by C's and B's charges, both unwritten.
    expect(await redisWallet()).toBeLessThan((await books()).balance);

    // Once C's heartbeat has expired, a live instance's sweep rebuilds the wallet: the database less B's
    // charges still in flight (unless B has written them meanwhile; then the database alone).
    expect(await registered(2)).toBe(2);
    const swept = await books();
    const perCall = swept.charged / swept.calls;
    const bUnwritten = swept.calls === 3 ? 4 : 0;
    expect(swept.calls).toBe(3 + 4 - bUnwritten);
    expect(await redisWallet()).toBe(swept.balance - bUnwritten * perCall);

    // A restart joins and serves; then every instance stops cleanly, writing what it holds: Redis and the
    // database agree to the micro-dollar, and nothing is held back.
    const restarted = await start(50);
    await calls(restarted, 2);
    for (const gateway of [b, restarted, a]) gateway.child.kill('SIGTERM');
    expect(await Promise.all([b.exited, restarted.exited, a.exited])).toEqual([0, 0, 0]);
    const final = await books();
    expect(final.calls).toBe(3 + 4 + 2);
    expect(final.balance).toBe(20_000_000 - final.charged);
    expect(await redisWallet()).toBe(final.balance);
    expect(await redis.zcard(`${prefix}wallet-resv:1`)).toBe(0);
  });

  it('rebuilds the wallet when the only instance is killed and restarted', { timeout: 60_000 }, async () => {
    const alone = await start(5000);
    await calls(alone, 4);
    await allSettled();
    alone.child.kill('SIGKILL');
    await alone.exited;
    const before = await books();
    expect(await redisWallet()).toBeLessThan(before.balance);
    const restarted = await start(50);
    const deadline = Date.now() + 10_000;
    while ((await redisWallet()) !== before.balance && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await redisWallet()).toBe(before.balance);
    await calls(restarted, 1);
    restarted.child.kill('SIGTERM');
    await restarted.exited;
    expect(await redisWallet()).toBe((await books()).balance);
  });
});
