// When Redis goes away, calls that need the shared counters get a clean 503 with Retry-After (never a
// 500, never an unmetered call), and the gateway recovers by itself when Redis is back.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { testRedisPrefix } from '../helpers/test-postgres.ts';

const REDIS = { host: '127.0.0.1', port: 6379 };
const KEY = testKey('outageuser');
let upstream: OpenAISimulator;
let gateway: TestGateway;
let proxy: Server;
let proxyPort: number;
let prefix: string;
const sockets = new Set<Socket>();
let refusing = false;

/** A TCP proxy in front of Redis that the test can cut and restore. */
function startProxy(port = 0): Promise<Server> {
  const server = createServer((client) => {
    if (refusing) return client.destroy();
    const redis = connect(REDIS.port, REDIS.host);
    sockets.add(client).add(redis);
    client.pipe(redis).pipe(client);
    const close = () => { client.destroy(); redis.destroy(); };
    client.on('error', close).on('close', close);
    redis.on('error', close).on('close', close);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'k' });
  proxy = await startProxy();
  proxyPort = (proxy.address() as AddressInfo).port;
  prefix = testRedisPrefix();
  gateway = await startTestGateway({
    channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'k', models: ['m'] }],
    models: [{ id: 'm', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'oli', balance: 10 }],
    keys: [{ name: 'k', key: KEY, user: 'oli' }],
  }, { env: { REDIS_URL: `redis://127.0.0.1:${proxyPort}`, REDIS_PREFIX: prefix } });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => proxy?.close(resolve));
  const redis = new Redis(REDIS.port, REDIS.host);
  const leftovers = await redis.keys(`${prefix}*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

const ask = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });

it('answers 503 while Redis is away and recovers when it is back', async () => {
  await expect(ask()).resolves.toBeDefined();
  refusing = true;
  for (const socket of sockets) socket.destroy();
  const error = await ask().catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('1');
  refusing = false;
  let recovered = false;
  for (let i = 0; i < 50 && !recovered; i++) {
    recovered = await ask().then(() => true, () => false);
    if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(recovered).toBe(true);
});
