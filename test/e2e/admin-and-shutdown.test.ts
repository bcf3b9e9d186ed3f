// Administration through the API (keys, wallets, channel tests and re-enabling) and a graceful shutdown.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { openDatabase } from '../../src/db/database.ts';

const UPSTREAM_KEY = 'sk-upstream-admin';
const keys = { admin: testKey('ivyadmin'), user: testKey('jackuser') };
let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [
      { name: 'good', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['m'] },
      { name: 'dead', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: UPSTREAM_KEY, models: ['m-dead'] },
      { name: 'flaky', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['m-flaky'] },
    ],
    models: [{ id: 'm', input_per_mtok: 1, output_per_mtok: 1 }, { id: 'm-dead', free: true }, { id: 'm-flaky', free: true }],
    users: [{ name: 'ivy', role: 'admin', balance: 1 }, { name: 'jack', balance: 1 }],
    keys: [{ name: 'admin', key: keys.admin, user: 'ivy' }, { name: 'user', key: keys.user, user: 'jack' }],
  }, { env: { CHANNEL_RETEST_INTERVAL_MS: '200' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

async function admin(method: string, path: string, body?: object, key = keys.admin) {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

const channelId = async (name: string) => (await gateway.database.db.selectFrom('channels').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describe('admin API', () => {
  it('is closed to users who are not administrators', async () => {
    expect((await admin('GET', '/api/admin/keys', undefined, keys.user)).status).toBe(403);
  });

  it('creates a key whose secret is shown once and works at once; a quota change applies to the next request', async () => {
    const created = await admin('POST', '/api/admin/keys', { user: 'jack', name: 'fresh', models: ['m'] });
    expect(created.status).toBe(201);
    const secret = created.body.key as string;
    expect(secret).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['m']);
    const listed = await admin('GET', '/api/admin/keys');
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    await admin('PATCH', `/api/admin/keys/${created.body.id}`, { quota_usd: 0 });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
  });

  it('grants money to a wallet as a ledger row', async () => {
    const jack = await gateway.database.db.selectFrom('users').selectAll().where('name', '=', 'jack').executeTakeFirstOrThrow();
    const granted = await admin('POST', `/api/admin/users/${jack.id}/grant`, { amount_usd: 2.5, note: 'support credit' });
    expect(granted.body.balance_usd).toBeCloseTo(jack.balance_micros / 1e6 + 2.5, 6);
    const rows = await gateway.database.db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', jack.id).execute();
    expect(rows.some((row) => row.kind === 'grant' && row.amount_micros === 2_500_000 && row.note === 'support credit')).toBe(true);
  });

  it('answers 400 naming the field for a bad admin body', async () => {
    const response = await admin('POST', '/api/admin/keys', { user: 'jack', name: 'x', quota_usd: -1 });
    expect(response.status).toBe(400);
    expect((response.body.error as { param: string }).param).toBe('quota_usd');
  });
});

describe('channel tests', () => {
  it('reports status and latency of a working channel and the error of a dead one', async () => {
    const good = await admin('POST', `/api/admin/channels/${await channelId('good')}/test`, {});
    expect(good.body).toMatchObject({ ok: true, status: 200, channel: 'good' });
    expect(typeof good.body.latency_ms).toBe('number');
    const dead = await admin('POST', `/api/admin/channels/${await channelId('dead')}/test`, {});
    expect(dead.body).toMatchObject({ ok: false, status: null });
    expect(dead.body.error).toMatch(/ECONNREFUSED|connect/);
  });

  it('re-enables a channel disabled for a refused key once it answers again, on the schedule', async () => {
    upstream.script({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: keys.user, maxRetries: 0 });
    const ask = () => client.chat.completions.create({ model: 'm-flaky', messages: [{ role: 'user', content: 'x' }] });
    await expect(ask()).rejects.toMatchObject({ status: 502 });
    const status = async () => (await gateway.database.db.selectFrom('channels').select('status').where('name', '=', 'flaky').executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('auto_disabled');
    const until = Date.now() + 3000;
    while ((await status()) !== 'enabled' && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await status()).toBe('enabled');
    await expect(ask()).resolves.toBeDefined();
  });
});

describe('graceful shutdown', () => {
  it('finishes a stream in flight on SIGTERM, writes its usage, and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-shutdown-'));
    const key = testKey('shutdownkey');
    await writeFile(join(dir, 'gw.yaml'), stringify({
      channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['m'] }],
      models: [{ id: 'm', input_per_mtok: 1, output_per_mtok: 1 }],
      users: [{ name: 'kim', balance: 1 }],
      keys: [{ name: 'k', key, user: 'kim' }],
    }));
    const databaseUrl = `sqlite:${join(dir, 'g.db')}`;
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../src/main.ts'), '--config', join(dir, 'gw.yaml')], {
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const url = await new Promise<string>((resolve) => {
      // The log stream is standard error.
      createInterface({ input: child.stderr! }).on('line', (line) => {
        const match = /gateway listening on (http:\/\/\S+?)"/.exec(line);
        if (match) resolve(match[1]!);
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    upstream.script({ chunkDelayMs: 60 });
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'a longer question to stream back slowly' }] }),
    });
    const reader = response.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    child.kill('SIGTERM');
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await exited).toBe(0);
    const database = await openDatabase(databaseUrl);
    const logs = await database.db.selectFrom('usage_logs').selectAll().execute();
    const ledger = await database.db.selectFrom('wallet_ledger').selectAll().where('kind', '=', 'charge').execute();
    await database.close();
    await rm(dir, { recursive: true, force: true });
    expect(logs).toHaveLength(1);
    expect(logs[0]!.error).toBeNull();
    expect(ledger).toHaveLength(1);
    expect(-ledger[0]!.amount_micros).toBe(logs[0]!.cost_micros);
  });
});
