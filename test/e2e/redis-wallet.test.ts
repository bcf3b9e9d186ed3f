// Redis's wallet against the database, on SQLite and PostgreSQL: a realtime session and a failed (free)
// call settle a cost of 0 without error, and a call answered while Redis was away is still charged exactly
// once with its reservation released once Redis is back.
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startRealtimeSimulator, type RealtimeSimulator } from '../simulators/realtime-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';

const REDIS = { host: '127.0.0.1', port: 6379 };
const KEY = testKey('rediswalletuser');

/** A TCP proxy in front of Redis that a test can cut and restore. */
function redisProxy() {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return client.destroy();
    const redis = connect(REDIS.port, REDIS.host);
    sockets.add(client).add(redis);
    client.pipe(redis).pipe(client);
    const close = () => { client.destroy(); redis.destroy(); };
    client.on('error', close).on('close', close);
    redis.on('error', close).on('close', close);
  });
  return {
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(resolve);
    }),
  };
}

async function until(check: () => Promise<boolean>, ms = 8000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe.each([{ engine: 'SQLite' }, { engine: 'PostgreSQL' }])('Redis wallet on $engine', ({ engine }) => {
  let upstream: OpenAISimulator;
  let realtime: RealtimeSimulator;
  let postgres: TestPostgres | undefined;
  let gateway: TestGateway;
  let redis: Redis;
  let prefix: string;
  const proxy = redisProxy();

  beforeAll(async () => {
    upstream = await startOpenAISimulator({ apiKey: 'k' });
    realtime = await startRealtimeSimulator({ apiKey: 'rk' });
    postgres = engine === 'PostgreSQL' ? await createTestPostgres() : undefined;
    prefix = testRedisPrefix();
    redis = new Redis(REDIS.port, REDIS.host);
    const port = await proxy.listen();
    gateway = await startTestGateway({
      channels: [
        { name: 'up', type: 'openai', base_url: upstream.url, api_key: 'k', models: ['m'] },
        { name: 'rt', type: 'openai', base_url: realtime.url, api_key: 'rk', models: ['gpt-realtime'] },
      ],
      models: [{ id: 'm', input_per_mtok: 1000, output_per_mtok: 1000 }, { id: 'gpt-realtime', input_per_mtok: 40, output_per_mtok: 160 }],
      users: [{ name: 'val', balance: 10 }],
      keys: [{ name: 'k', key: KEY, user: 'val' }],
    }, { env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: prefix, REDIS_INSTANCE_TTL_MS: '900', ...(postgres ? { DATABASE_URL: postgres.url } : {}) } });
  });

  afterAll(async () => {
    await gateway?.dispose();
    await proxy.close();
    await postgres?.drop();
    await upstream?.close();
    await realtime?.close();
    const leftovers = await redis.keys(`${prefix}*`);
    if (leftovers.length > 0) await redis.del(...leftovers);
    await redis.quit();
  });

  const chat = () => fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] }),
  }).then((response) => response.status, () => 0);
  const databaseBalance = async () => (await gateway.database.db.selectFrom('users').select('balance_micros').where('name', '=', 'val').executeTakeFirstOrThrow()).balance_micros;
  const redisBalance = async () => Number(await redis.hget(`${prefix}wallet:1`, 'value'));
  const reservations = () => redis.zcard(`${prefix}wallet-resv:1`);
  /** Redis and the database agree, and nothing is held back, once the queued charges are written. */
  const settledAndEqual = async () => {
    await gateway.recorder.flush();
    return (await reservations()) === 0 && (await redisBalance()) === (await databaseBalance());
  };

  it('accepts a realtime session and meters it, settling its zero admission hold without error', async () => {
    const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${KEY}` } });
    const events: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      socket.on('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      socket.on('message', (data) => {
        const event = JSON.parse(data.toString()) as { type: string };
        events.push(event.type);
        if (event.type === 'session.created') socket.send(JSON.stringify({ type: 'response.create' }));
        if (event.type === 'response.done') resolve();
      });
    });
    await done;
    socket.close();
    expect(events).toContain('session.created');
    expect(await until(settledAndEqual)).toBe(true);
    const log = await gateway.database.db.selectFrom('usage_logs').select('cost_micros').where('endpoint', '=', '/v1/realtime').executeTakeFirstOrThrow();
    expect(log.cost_micros).toBeGreaterThan(0);
  });

  it('releases the reservation of a failed call, which costs nothing, without a Redis error', async () => {
    // Settling a cost of 0 once sent "-0" to HINCRBY (ERR value is not an integer), logged for every such call.
    const held = await gateway.accounting.reserve({ userId: 1, keyId: 1, keyQuotaMicros: null }, 5);
    await expect(gateway.accounting.settle(held!, 0)).resolves.toBeUndefined();
    const before = await databaseBalance();
    upstream.script({ status: 400 });
    expect(await chat()).toBe(400);
    expect(await until(settledAndEqual)).toBe(true);
    expect(await databaseBalance()).toBe(before);
  });

  it('charges a call answered while Redis was away exactly once, and releases its reservation, once Redis is back', async () => {
    expect(await chat()).toBe(200);
    expect(await until(settledAndEqual)).toBe(true);
    const before = await databaseBalance();
    upstream.script({ delayMs: 500 });
    const answered = chat();
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.cut();
    expect(await answered).toBe(200);
    await gateway.recorder.flush();
    const charged = before - await databaseBalance();
    expect(charged).toBeGreaterThan(0);
    proxy.restore();
    expect(await until(settledAndEqual)).toBe(true);
    expect(await chat()).toBe(200);
    expect(await until(settledAndEqual)).toBe(true);
  });
});
