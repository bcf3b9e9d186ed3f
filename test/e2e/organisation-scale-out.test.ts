// Organisations across two instances over one PostgreSQL and one Redis, with the periodic snapshot reload
// off (only the change notices over Redis can tell the other instance): a member's cap set on one instance
// holds their key on the other, and removing the member on one instance stops their key on the other.
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const UPSTREAM_KEY = 'sk-upstream-org-scale';
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let postgres: TestPostgres;
let prefix: string;
let a: TestGateway;
let b: TestGateway;

const config = {
  channels: [{ name: 'sim', type: 'openai', base_url: '', api_key: UPSTREAM_KEY, models: ['priced'] }],
  models: [{ id: 'priced', input_per_mtok: 1, output_per_mtok: 1 }],
  users: [
    { name: 'root', email: 'root@example.com', password: 'root password 123', role: 'admin' },
    { name: 'opal', email: 'opal@example.com', password: 'opal password 123' },
    { name: 'max', email: 'max@example.com', password: 'max password 1234' },
  ],
};

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  config.channels[0]!.base_url = upstream.url;
  smtp = await startTestSmtp();
  postgres = await createTestPostgres();
  prefix = testRedisPrefix();
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

const ask = (gateway: TestGateway, apiKey: string, maxTokens?: number) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })
  .chat.completions.create({ model: 'priced', ...(maxTokens ? { max_tokens: maxTokens } : {}), messages: [{ role: 'user', content: 'hi' }] });

describe('organisations on two instances', () => {
  it("holds a cap set on one instance on the other, and stops a removed member's key on the other at once", async () => {
    const opal = new ApiClient(a.url);
    const max = new ApiClient(b.url);
    const root = new ApiClient(a.url);
    await opal.post('/api/auth/login', { email: 'opal@example.com', password: 'opal password 123' });
    await max.post('/api/auth/login', { email: 'max@example.com', password: 'max password 1234' });
    await root.post('/api/auth/login', { email: 'root@example.com', password: 'root password 123' });
    const org = (await opal.post('/api/orgs', { name: 'Twin' })).body.id as number;
    await opal.post(`/api/orgs/${org}/invites`, { email: 'max@example.com' });
    const mail = await smtp.waitFor('max@example.com', /Join Twin/);
    expect((await max.post('/api/orgs/join', { token: new URL(linkIn(mail, '/orgs/join?token=')).searchParams.get('token') })).status).toBe(200);
    const code = (await root.post('/api/admin/redemption-codes', { count: 1, amount_usd: 2 })).body.codes[0];
    expect((await opal.post(`/api/orgs/${org}/wallet/redeem`, { code })).status).toBe(200);
    // Max's key is made on instance B and used on instance A once A has heard of it (the announcement
    // crosses Redis; on a loaded machine that can take longer than the first call).
    const key = (await max.post(`/api/orgs/${org}/keys`, { name: 'max-key' })).body.key as string;
    await expect.poll(async () => ask(a, key).then(() => 'answered', (error: { status: number }) => `${error.status}`), { timeout: 10_000 }).toBe('answered');

    const maxId = ((await opal.get(`/api/orgs/${org}/members`)).body.data as { user_id: number; name: string }[]).find((member) => member.name === 'max')!.user_id;
    expect((await opal.patch(`/api/orgs/${org}/members/${maxId}`, { monthly_cap_usd: 0.001 })).status).toBe(200);
    // The default output bound is over the cap: refused on B once B has heard of the cap.
    await expect.poll(async () => ask(b, key).then(() => 'answered', (error: { status: number; message: string }) => `${error.status} ${error.message}`), { timeout: 10_000 })
      .toMatch(/^429 .*monthly spending cap/);
    await expect(ask(b, key, 5)).resolves.toBeTruthy();

    expect((await opal.delete(`/api/orgs/${org}/members/${maxId}`)).body).toEqual({ removed: true, revoked_keys: 1 });
    await expect.poll(async () => ask(b, key, 5).then(() => 200, (error: { status: number }) => error.status), { timeout: 10_000 }).toBe(401);
    await expect(ask(a, key, 5)).rejects.toMatchObject({ status: 401 });
  });
});
