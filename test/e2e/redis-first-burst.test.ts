// A fresh gateway process with REDIS_URL survives a concurrent burst on its very first calls (its Lua
// scripts are not yet known to its connection), also when an admin sets a rate limit under load, and every
// answered call is charged with its reservation released. Each try is a new process: the fault only shows
// on a connection that has not run the scripts yet.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey } from '../helpers/test-gateway.ts';
import { testRedisPrefix } from '../helpers/test-postgres.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TRIES = 3;
const BURST = 100;
const KEY = testKey('burstuser');
const ADMIN = testKey('burstadmin');
let upstream: OpenAISimulator;
let redis: Redis;
const prefixes: string[] = [];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'k' });
  redis = new Redis(REDIS_URL);
});

afterAll(async () => {
  await upstream?.close();
  for (const prefix of prefixes) {
    const leftovers = await redis.keys(`${prefix}*`);
    if (leftovers.length > 0) await redis.del(...leftovers);
  }
  await redis?.quit();
});

const config = () => ({
  channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'k', models: ['m'] }],
  models: [{ id: 'm', input_per_mtok: 1000, output_per_mtok: 1000 }],
  users: [{ name: 'bea', balance: 50, role: 'admin' }],
  keys: [{ name: 'k', key: KEY, user: 'bea' }, { name: 'admin', key: ADMIN, user: 'bea' }],
});

const chat = (url: string) => fetch(`${url}/v1/chat/completions`, {
  method: 'POST',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] }),
}).then(async (response) => ({ status: response.status, body: await response.text() }), () => ({ status: 0, body: 'connection lost' }));

/** Starts a fresh process, runs the burst, stops it with SIGTERM and returns what the books say. */
async function tryOnce(duringBurst?: (url: string) => Promise<unknown>) {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-burst-'));
  const prefix = testRedisPrefix();
  prefixes.push(prefix);
  const databaseUrl = `sqlite:${join(dir, 'g.db')}`;
  const gateway = await startGatewayProcess(dir, config(), { DATABASE_URL: databaseUrl, REDIS_URL, REDIS_PREFIX: prefix, FLUSH_INTERVAL_MS: '50' });
  let crashed = false;
  void gateway.exited.then(() => (crashed = true));
  try {
    const answers = await Promise.all([...Array.from({ length: BURST }, () => chat(gateway.url)), duringBurst?.(gateway.url)]);
    // Still alive after the burst: a second round is answered too.
    const after = await chat(gateway.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const redisWallet = await redis.hget(`${prefix}wallet:1`, 'value');
    const reservations = await redis.zcard(`${prefix}wallet-resv:1`);
    const crashedDuringBurst = crashed;
    if (!crashedDuringBurst) {
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
    }
    const database = await openDatabase(databaseUrl);
    const user = await database.db.selectFrom('users').select('balance_micros').where('name', '=', 'bea').executeTakeFirstOrThrow();
    const logs = await database.db.selectFrom('usage_logs').select(['status', 'cost_micros']).execute();
    await database.close();
    return { crashed: crashedDuringBurst, stderr: gateway.stderr(), statuses: answers.slice(0, BURST).map((answer) => (answer as { status: number }).status), after: after.status, redisWallet: Number(redisWallet), reservations, balance: user.balance_micros, logs };
  } finally {
    gateway.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

describe('a fresh Redis-backed gateway under a first burst', () => {
  it('answers every call of the first burst, charges each and releases every reservation', { timeout: 120_000 }, async () => {
    for (let i = 0; i < TRIES; i++) {
      const result = await tryOnce();
      expect(result.stderr).not.toMatch(/is not iterable|is not a function/);
      expect(result.crashed).toBe(false);
      expect(result.statuses.every((status) => status === 200)).toBe(true);
      expect(result.after).toBe(200);
      expect(result.reservations).toBe(0);
      const charged = result.logs.reduce((sum, log) => sum + log.cost_micros, 0);
      expect(result.logs).toHaveLength(BURST + 1);
      expect(charged).toBeGreaterThan(0);
      expect(result.balance).toBe(50_000_000 - charged);
      // Redis's wallet agrees with the database once the charges are written.
      expect(result.redisWallet).toBe(result.balance);
    }
  });

  it('survives an admin setting an rpm_limit during the first burst', { timeout: 120_000 }, async () => {
    for (let i = 0; i < TRIES; i++) {
      const result = await tryOnce(async (url) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const response = await fetch(`${url}/api/admin/keys/1`, { method: 'PATCH', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ rpm_limit: 1000 }) }).catch(() => null);
        expect(response?.status).toBe(200);
      });
      expect(result.stderr).not.toMatch(/is not iterable|is not a function/);
      expect(result.crashed).toBe(false);
      expect(result.statuses.every((status) => status === 200)).toBe(true);
      expect(result.reservations).toBe(0);
    }
  });
});
