// Accounts and runtime administration across two instances over one PostgreSQL and one Redis: a channel
// and a price created through the API on one instance serve a key's next call on both, without a restart;
// sessions, key changes, throttling and mail work whichever instance a request lands on.
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const UPSTREAM_KEY = 'sk-upstream-api-scale';
const USER_KEY = testKey('apiscaleuser');
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let postgres: TestPostgres;
let prefix: string;
let a: TestGateway;
let b: TestGateway;

const config = {
  users: [
    { name: 'boss', email: 'boss@example.com', password: 'boss password 123', role: 'admin' },
    { name: 'ursula', email: 'ursula@example.com', password: 'ursula password 1', balance: 5 },
  ],
  keys: [{ name: 'main', key: USER_KEY, user: 'ursula' }],
};

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, models: ['runtime-model'] });
  smtp = await startTestSmtp();
  postgres = await createTestPostgres();
  prefix = testRedisPrefix();
  // Snapshot reloads off: only the change notices over Redis can make the other instance see a change.
  const env = { DATABASE_URL: postgres.url, REDIS_URL, REDIS_PREFIX: prefix, SMTP_URL: smtp.url, MAIL_POLL_MS: '100', SNAPSHOT_RELOAD_MS: '0' };
  a = await startTestGateway(config, { env });
  b = await startTestGateway(config, { env });
});

afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  await postgres?.drop();
  await smtp?.close();
  await upstream?.close();
  const redis = new Redis(REDIS_URL);
  const leftovers = await redis.keys(`${prefix}*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

/**
 * Calls made with the user's main key, answered or refused: every one is logged. How many depends on how
 * soon the other instance hears of a new channel (each earlier try is a logged 404), so it is counted.
 */
let mainKeyCalls = 0;
const ask = (gateway: TestGateway, apiKey: string) => {
  if (apiKey === USER_KEY) mainKeyCalls++;
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })
    .chat.completions.create({ model: 'runtime-model', messages: [{ role: 'user', content: 'hi' }] });
};

/** The other instance hears of a change over Redis pub/sub within moments. */
async function eventually(check: () => Promise<void>): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 60; i++) {
    try {
      return await check();
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw last;
}

describe('two instances', () => {
  it('a channel and a price created on one instance serve the next call on both', async () => {
    const admin = new ApiClient(a.url);
    expect((await admin.post('/api/auth/login', { email: 'boss@example.com', password: 'boss password 123' })).status).toBe(200);
    await expect(ask(b, USER_KEY)).rejects.toMatchObject({ status: 404 });
    expect((await admin.post('/api/admin/channels', { name: 'rt', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['runtime-model'] })).status).toBe(201);
    expect((await admin.put('/api/admin/models', { id: 'runtime-model', input_per_mtok: 2, output_per_mtok: 2 })).status).toBe(200);
    expect((await ask(a, USER_KEY)).choices[0]!.message.content).toBeTruthy();
    await eventually(async () => {
      expect((await ask(b, USER_KEY)).choices[0]!.message.content).toBeTruthy();
    });
  });

  it('a session from one instance works on the other; a key made on one and deleted on the other stops on both', async () => {
    const onA = new ApiClient(a.url);
    await onA.post('/api/auth/login', { email: 'ursula@example.com', password: 'ursula password 1' });
    const onB = new ApiClient(b.url);
    onB.cookie = onA.cookie;
    onB.csrf = onA.csrf;
    expect((await onB.get('/api/me')).body.user.email).toBe('ursula@example.com');
    // Logs, statistics and the wallet read the same PostgreSQL from either instance.
    // The 404 before the channel existed, any 404 of B before it heard of it (refused calls are logged too,
    // at no cost), and two answered.
    expect(mainKeyCalls).toBeGreaterThanOrEqual(3);
    await eventually(async () => {
      expect((await onB.get('/api/wallet')).body.requests).toBe(mainKeyCalls);
    });
    const wallet = (await onB.get('/api/wallet')).body;
    // Today's charges are one entry dated at the start of the day; the opening grant is its own entry.
    const byKind = Object.fromEntries(wallet.ledger.data.map((row: { kind: string }) => [row.kind, row]));
    expect(Object.keys(byKind).sort()).toEqual(['charges', 'grant']);
    // The day's charge entry counts the day's calls, the refused 404s among them (they cost nothing).
    expect(byKind.charges.count).toBe(mainKeyCalls);
    expect(byKind.charges.amount_usd).toBeLessThan(0);
    expect(byKind.grant.amount_usd).toBe(5);
    expect(wallet.balance_usd).toBeCloseTo(5 + byKind.charges.amount_usd, 6);
    expect((await onA.get('/api/logs?model=runtime-model&outcome=success')).body.data).toHaveLength(2);
    expect((await onA.get('/api/stats?bucket=day')).body.by_key[0]).toMatchObject({ key_name: 'main', requests: mainKeyCalls });
    const created = await onA.post('/api/keys', { name: 'shared' });
    await eventually(async () => {
      expect((await ask(b, created.body.key)).choices.length).toBe(1);
    });
    expect((await onB.delete(`/api/keys/${created.body.id}`)).status).toBe(200);
    await eventually(async () => {
      await expect(ask(a, created.body.key)).rejects.toMatchObject({ status: 401 });
    });
    await expect(ask(b, created.body.key)).rejects.toMatchObject({ status: 401 });
  });

  it('counts failed sign-ins across instances', async () => {
    for (let i = 0; i < 5; i++) {
      const gateway = i % 2 === 0 ? a : b;
      expect((await new ApiClient(gateway.url).post('/api/auth/login', { email: 'ursula@example.com', password: `wrong password ${i}` })).status).toBe(401);
    }
    expect((await new ApiClient(a.url).post('/api/auth/login', { email: 'ursula@example.com', password: 'ursula password 1' })).status).toBe(429);
    expect((await new ApiClient(b.url).post('/api/auth/login', { email: 'ursula@example.com', password: 'ursula password 1' })).status).toBe(429);
  });

  it('sends each queued mail once although both instances run the outbox', async () => {
    const since = smtp.mails.length;
    for (let i = 0; i < 6; i++) await new ApiClient(i % 2 ? a.url : b.url).post('/api/auth/signup', { email: `twin${i}@example.com`, password: 'long enough password' });
    for (let i = 0; i < 6; i++) await smtp.waitFor(`twin${i}@example.com`, /Confirm/, since);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const twins = smtp.mails.slice(since).filter((mail) => mail.to.some((to) => to.startsWith('twin')));
    expect(twins).toHaveLength(6);
  });
});
