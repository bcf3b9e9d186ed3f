// Two gateway instances over one PostgreSQL and one Redis share keys, quotas, rate limits and wallets.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const UPSTREAM_KEY = 'sk-upstream-scale';
const keys = { quota: testKey('gracequota'), limited: testKey('gracelimited'), revoked: testKey('gracerevoked'), admin: testKey('graceadmin'), wallet: testKey('henrywallet') };

let upstream: OpenAISimulator;
let postgres: TestPostgres;
let prefix: string;
let a: TestGateway;
let b: TestGateway;

const config = {
  channels: [
    { name: 'up', type: 'openai', base_url: '', api_key: UPSTREAM_KEY, models: ['priced'] },
    // Two routes to one simulator, told apart by the upstream model id each maps to.
    { name: 'flappy', type: 'openai', base_url: '', api_key: UPSTREAM_KEY, models: ['shared'], model_mapping: { shared: 'via-flappy' }, priority: 1 },
    { name: 'steady', type: 'openai', base_url: '', api_key: UPSTREAM_KEY, models: ['shared'], model_mapping: { shared: 'via-steady' }, priority: 0 },
  ],
  models: [{ id: 'priced', owned_by: 'test', input_per_mtok: 1, output_per_mtok: 1 }, { id: 'shared', free: true }],
  users: [{ name: 'grace', balance: 100, role: 'admin' }, { name: 'henry', balance: 0.0005 }],
  keys: [
    { name: 'quota', key: keys.quota, user: 'grace', quota: 0.0002 },
    { name: 'limited', key: keys.limited, user: 'grace', rpm_limit: 3 },
    { name: 'revoked', key: keys.revoked, user: 'grace' },
    { name: 'admin', key: keys.admin, user: 'grace' },
    { name: 'wallet', key: keys.wallet, user: 'henry' },
  ],
};

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  postgres = await createTestPostgres();
  prefix = testRedisPrefix();
  for (const channel of config.channels) channel.base_url = upstream.url;
  const env = { DATABASE_URL: postgres.url, REDIS_URL, REDIS_PREFIX: prefix, BREAKER_FAILURES: '2', BREAKER_COOLDOWN_MS: '5000' };
  a = await startTestGateway(config, { env });
  b = await startTestGateway(config, { env });
});

afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  await postgres?.drop();
  await upstream?.close();
  const redis = new Redis(REDIS_URL);
  const leftovers = await redis.keys(`${prefix}*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

const client = (gateway: TestGateway, apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 });
const ask = (gateway: TestGateway, apiKey: string) => client(gateway, apiKey).chat.completions.create({ model: 'priced', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });

describe('two instances over PostgreSQL and Redis', () => {
  it('holds a key quota across both instances', async () => {
    let refused: unknown;
    for (let i = 0; i < 30 && !refused; i++) {
      await ask(i % 2 === 0 ? a : b, keys.quota).catch((error: unknown) => (refused = error));
    }
    expect(refused).toMatchObject({ status: 429, code: 'insufficient_quota' });
    await a.recorder.flush();
    await b.recorder.flush();
    const key = await a.database.db.selectFrom('api_keys').selectAll().where('name', '=', 'quota').executeTakeFirstOrThrow();
    expect(key.used_micros).toBeGreaterThan(0);
    expect(key.used_micros).toBeLessThanOrEqual(200);
    const logs = await a.database.db.selectFrom('usage_logs').select('cost_micros').where('key_name', '=', 'quota').execute();
    expect(logs.reduce((sum, log) => sum + log.cost_micros, 0)).toBe(key.used_micros);
  });

  it('never overspends one wallet from both instances at once, and the balance equals the ledger', async () => {
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => ask(i % 2 === 0 ? a : b, keys.wallet)));
    const succeeded = results.filter((result) => result.status === 'fulfilled').length;
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThan(60);
    await a.recorder.flush();
    await b.recorder.flush();
    const henry = await a.database.db.selectFrom('users').selectAll().where('name', '=', 'henry').executeTakeFirstOrThrow();
    const ledger = await a.database.db.selectFrom('wallet_ledger').select('amount_micros').where('user_id', '=', henry.id).execute();
    expect(henry.balance_micros).toBeGreaterThanOrEqual(0);
    expect(henry.balance_micros).toBe(ledger.reduce((sum, row) => sum + row.amount_micros, 0));
  });

  it('shares a rate limit across both instances', async () => {
    await ask(a, keys.limited);
    await ask(b, keys.limited);
    await ask(a, keys.limited);
    await expect(ask(b, keys.limited)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('shares an open circuit: the other instance skips the failing channel too', async () => {
    const via = (model: string) => upstream.requests.filter((r) => (r.body as { model?: string })?.model === model).length;
    const boom = { status: 500, body: { error: { message: 'down', type: 'server_error', param: null, code: null } } };
    upstream.script(boom, boom);
    const shared = (gateway: TestGateway) => client(gateway, keys.admin).chat.completions.create({ model: 'shared', messages: [{ role: 'user', content: 'x' }] });
    await shared(a); // two failures on flappy open its circuit on A; steady answers
    expect(via('via-flappy')).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await shared(b);
    await shared(b);
    expect(via('via-flappy')).toBe(2); // B never tried it
    expect(via('via-steady')).toBe(3);
  });

  it('stops a revoked key on both instances within a second', async () => {
    await ask(a, keys.revoked);
    await ask(b, keys.revoked);
    const row = await a.database.db.selectFrom('api_keys').select('id').where('name', '=', 'revoked').executeTakeFirstOrThrow();
    const response = await fetch(`${a.url}/api/admin/keys/${row.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${keys.admin}` } });
    expect(response.status).toBe(200);
    const revokedAt = Date.now();
    let stoppedOnB = false;
    while (Date.now() - revokedAt < 1000 && !stoppedOnB) {
      stoppedOnB = await ask(b, keys.revoked).then(() => false, (error: unknown) => (error as { status?: number }).status === 401);
    }
    expect(stoppedOnB).toBe(true);
    await expect(ask(a, keys.revoked)).rejects.toMatchObject({ status: 401 });
  });
});
