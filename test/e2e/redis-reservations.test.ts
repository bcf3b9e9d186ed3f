// With Redis, a reservation that is never settled (its instance died mid-call) stops holding the wallet
// back after RESERVATION_TTL_MS.
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { testRedisPrefix } from '../helpers/test-postgres.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY = testKey('reservationuser');
let upstream: OpenAISimulator;
let gateway: TestGateway;
let prefix: string;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'k' });
  prefix = testRedisPrefix();
  gateway = await startTestGateway({
    channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'k', models: ['m'] }],
    models: [{ id: 'm', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'rae', balance: 0.001 }],
    keys: [{ name: 'k', key: KEY, user: 'rae' }],
  }, { env: { REDIS_URL, REDIS_PREFIX: prefix, RESERVATION_TTL_MS: '400' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
  const redis = new Redis(REDIS_URL);
  const leftovers = await redis.keys(`${prefix}*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

const ask = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });

it('lets an unsettled reservation expire instead of holding the money for ever', async () => {
  await expect(ask()).resolves.toBeDefined();
  const user = await gateway.database.db.selectFrom('users').select('id').where('name', '=', 'rae').executeTakeFirstOrThrow();
  const key = await gateway.database.db.selectFrom('api_keys').select('id').where('name', '=', 'k').executeTakeFirstOrThrow();
  // A reservation of everything left, never settled: as if its instance had died mid-call.
  const left = await gateway.accounting.balance(user.id);
  const orphan = await gateway.accounting.reserve({ userId: user.id, keyId: key.id, keyQuotaMicros: null }, left);
  expect(orphan).not.toBeNull();
  await expect(ask()).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await expect(ask()).resolves.toBeDefined();
});
