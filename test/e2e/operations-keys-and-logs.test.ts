// Keys, logs and metrics as an operator and an attacker see them: keys that could never authenticate are
// config errors, deleted keys are final, calls refused before the upstream are logged at no cost, a
// refused upstream credential never shows in an answer, and /metrics can be closed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { parseConfigText } from '../../src/config/load-config-file.ts';
import { readEnv } from '../../src/config/env.ts';
import { startGateway } from '../../src/start-gateway.ts';

const mainScript = join(import.meta.dirname, '../../src/main.ts');
const UPSTREAM_KEY = 'sk-upstream-keys-and-logs';
// What a stale upstream key looks like: the simulator echoes it masked, as OpenAI does (sk-sta***…f9Q2).
const STALE_KEY = 'sk-staleUpstreamKeyThatTheProviderRevoked00f9Q2';
const STALE_GEMINI_KEY = 'AIzaStaleGeminiKeyThatGoogleRefuses0123';
const keys = { admin: testKey('opsadmin'), user: testKey('opsuser'), poor: testKey('opspoor'), narrow: testKey('opsnarrow') };
let upstream: OpenAISimulator;
let gemini: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gemini = await startGeminiSimulator({ apiKey: 'AIzaTheRightGeminiKey' });
  gateway = await startTestGateway({
    channels: [
      { name: 'good', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['m', 'text-embedding-3-small'] },
      { name: 'stale-chat', type: 'openai', base_url: upstream.url, api_key: STALE_KEY, models: ['stale-chat'] },
      { name: 'stale-stream', type: 'openai', base_url: upstream.url, api_key: STALE_KEY, models: ['stale-stream'] },
      { name: 'stale-responses', type: 'openai', base_url: upstream.url, api_key: STALE_KEY, models: ['stale-responses'] },
      { name: 'stale-embeddings', type: 'openai', base_url: upstream.url, api_key: STALE_KEY, models: ['stale-embeddings'] },
      { name: 'stale-translated', type: 'openai', base_url: upstream.url, api_key: STALE_KEY, models: ['stale-translated'] },
      { name: 'stale-gemini', type: 'gemini', base_url: gemini.url, api_key: STALE_GEMINI_KEY, models: ['stale-gemini'] },
    ],
    models: [
      { id: 'm', input_per_mtok: 1, output_per_mtok: 1 },
      { id: 'text-embedding-3-small', input_per_mtok: 1 },
      ...['stale-chat', 'stale-stream', 'stale-responses', 'stale-embeddings', 'stale-translated', 'stale-gemini'].map((id) => ({ id, free: true })),
    ],
    users: [{ name: 'root', role: 'admin', balance: 10 }, { name: 'uma', balance: 10 }, { name: 'pat', balance: 0 }],
    keys: [
      { name: 'admin', key: keys.admin, user: 'root' },
      { name: 'main', key: keys.user, user: 'uma' },
      { name: 'narrow', key: keys.narrow, user: 'uma', models: ['m'] },
      { name: 'poor', key: keys.poor, user: 'pat' },
    ],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
  await gemini?.close();
});

const openai = (key: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });
const hi = [{ role: 'user' as const, content: 'hi' }];

async function admin(method: string, path: string, body?: object) {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { authorization: `Bearer ${keys.admin}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

describe('declared keys that can never authenticate', () => {
  it('are config errors naming the file, the field path and the problem', () => {
    expect(() => parseConfigText('gw.yaml', stringify({ users: [{ name: 'u' }], keys: [{ name: 'k', user: 'u', key: 'sk-short' }] })))
      .toThrow(/Config file gw\.yaml is invalid:\n {2}- keys\[0\]\.key: can never authenticate: a gateway key is sk- followed by 40 to 128 letters or digits/);
    expect(() => parseConfigText('gw.yaml', stringify({ users: [{ name: 'u' }], keys: [{ name: 'k', user: 'u', key: `sk-proj-${'a'.repeat(48)}` }] }))).toThrow(/keys\[0\]\.key/);
  });
});

describe('a channel chat_format its type cannot serve chat in', () => {
  it('is a config error naming the field path and the formats the type can serve', () => {
    expect(() => parseConfigText('gw.yaml', stringify({ channels: [{ name: 'c', type: 'anthropic', api_key: 'k', models: ['m'], chat_format: 'openai-responses' }] })))
      .toThrow("channels[0].chat_format: a 'anthropic' channel serves chat in anthropic-messages, not 'openai-responses'");
    expect(() => parseConfigText('gw.yaml', stringify({ channels: [{ name: 'c', type: 'openai', api_key: 'k', models: ['m'], chat_format: 'openai-responses' }] }))).not.toThrow();
  });

  it('stop `npm start` with exit code 1 and do not echo the declared value', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-shortkey-'));
    await writeFile(join(dir, 'gw.yaml'), stringify({ users: [{ name: 'u' }], keys: [{ name: 'k', user: 'u', key: 'sk-short' }] }));
    const { code, stderr } = await run([mainScript, '--config', join(dir, 'gw.yaml')], { DATA_DIR: dir, PORT: '0' });
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stderr).toContain('keys[0].key: can never authenticate');
    expect(stderr).not.toContain('sk-short');
  });
});

describe('a deleted key', () => {
  it('can never be enabled again, through the admin API or the config file', async () => {
    const created = await admin('POST', '/api/admin/keys', { user: 'uma', name: 'temporary' });
    const id = created.body.id as number;
    const secret = created.body.key as string;
    await expect(openai(secret).models.list()).resolves.toBeDefined();
    expect((await admin('DELETE', `/api/admin/keys/${id}`)).status).toBe(200);
    const reenable = await admin('PATCH', `/api/admin/keys/${id}`, { enabled: true });
    expect(reenable.status).toBe(404);
    expect((reenable.body.error as { message: string }).message).toMatch(/was deleted; a deleted key can never be changed or enabled again/);
    expect((await admin('PATCH', `/api/admin/keys/${id}`, { quota_usd: 5 })).status).toBe(404);
    await expect(openai(secret).models.list()).rejects.toMatchObject({ status: 401 });
    const listed = (await admin('GET', '/api/admin/keys')).body.data as { id: number; status: string }[];
    expect(listed.find((key) => key.id === id)!.status).toBe('deleted');
    // Its name stays taken: a clear 409, not a database error.
    const again = await admin('POST', '/api/admin/keys', { user: 'uma', name: 'temporary' });
    expect(again.status).toBe(409);
    expect((again.body.error as { code: string }).code).toBe('key_name_taken');
  });

  it('stays deleted when the config file still declares it, and its secret cannot be declared again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-revoked-'));
    const secret = testKey('revokedsecret');
    const file = join(dir, 'gw.yaml');
    const env = readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' });
    const declare = (keysDeclared: object[]) => writeFile(file, stringify({ users: [{ name: 'vic', role: 'admin' }], keys: keysDeclared }));
    try {
      await declare([{ name: 'laptop', user: 'vic', key: secret }]);
      const first = await startGateway({ env, configFile: file });
      const id = (await first.database.db.selectFrom('api_keys').select('id').where('name', '=', 'laptop').executeTakeFirstOrThrow()).id;
      const deleted = await fetch(`${first.url}/api/admin/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${secret}` } });
      expect(deleted.status).toBe(200);
      await first.stop();

      await declare([{ name: 'laptop', user: 'vic', key: secret, enabled: true }]);
      const second = await startGateway({ env, configFile: file });
      const row = await second.database.db.selectFrom('api_keys').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      const models = await fetch(`${second.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
      await second.stop();
      expect(row.status).toBe('deleted');
      expect(models.status).toBe(401);

      await declare([{ name: 'laptop-again', user: 'vic', key: secret }]);
      await expect(startGateway({ env, configFile: file })).rejects.toThrow("Config keys[0].key (key 'laptop-again' of user 'vic') belonged to a deleted key and can never be used again");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('calls refused before the upstream', () => {
  it('are logged with their status, error and zero cost; a 401 is not (no key, no owner)', async () => {
    const longModel = 'x'.repeat(100_000);
    const refusals: [() => Promise<unknown>, number][] = [
      [() => openai(keys.narrow).chat.completions.create({ model: 'text-embedding-3-small', messages: hi }), 403],
      [() => openai(keys.user).chat.completions.create({ model: 'no-such-model', messages: hi }), 404],
      [() => openai(keys.user).chat.completions.create({ model: longModel, messages: hi }), 404],
      [() => openai(keys.poor).chat.completions.create({ model: 'm', messages: hi }), 429],
      [() => openai(keys.user).chat.completions.create({ model: 'm', messages: hi, temperature: 5 }), 400],
      [() => openai(keys.user).embeddings.create({ model: 'text-embedding-3-small', input: 42 as unknown as string }), 400],
      [() => openai(testKey('nobodyatall')).chat.completions.create({ model: 'm', messages: hi }), 401],
    ];
    const before = await gateway.database.db.selectFrom('usage_logs').select('id').orderBy('id', 'desc').executeTakeFirst();
    for (const [call, status] of refusals) await expect(call(), `expected ${status}`).rejects.toMatchObject({ status });
    // A realtime upgrade refused before the upgrade, too.
    const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/realtime?model=no-such-model`, { headers: { authorization: `Bearer ${keys.user}` } });
    socket.on('error', () => {});
    expect(await new Promise<number>((resolve) => socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)))).toBe(404);
    await gateway.recorder.flush();
    const rows = await gateway.database.db.selectFrom('usage_logs').selectAll().where('id', '>', before?.id ?? 0).orderBy('id').execute();
    expect(rows.map((row) => [row.key_name, row.status])).toEqual([['narrow', 403], ['main', 404], ['main', 404], ['poor', 429], ['main', 400], ['main', 400], ['main', 404]]);
    expect(rows.every((row) => row.cost_micros === 0 && row.error !== null && row.error.length > 0)).toBe(true);
    expect(rows[0]!.model).toBe('text-embedding-3-small');
    expect(rows[2]!.model.length).toBeLessThanOrEqual(128);
    expect(rows[2]!.error!.length).toBeLessThanOrEqual(1000);
    expect(rows[3]!.error).toMatch(/balance is too low/);
    expect(rows.map((row) => row.endpoint)).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions', '/v1/embeddings', '/v1/realtime']);
  });
});

describe('an upstream refusing the channel’s own credential', () => {
  const fragments = (key: string) => [key, key.slice(0, 6), key.slice(-4), key.slice(3, 10)];
  const expectNoTrace = (text: string, key: string) => {
    for (const fragment of fragments(key)) expect(text).not.toContain(fragment);
  };

  it('answers 502 showing no part of the credential, on every path, and records no part of it either', async () => {
    const answers: { status: number; text: string }[] = [];
    const capture = async (call: Promise<unknown>) => {
      const error = await call.then(() => null, (caught: unknown) => caught) as { status: number; message: string; error?: unknown } | null;
      expect(error).not.toBeNull();
      answers.push({ status: error!.status, text: `${error!.message} ${JSON.stringify(error!.error ?? null)}` });
    };
    await capture(openai(keys.user).chat.completions.create({ model: 'stale-chat', messages: hi }));
    await capture(openai(keys.user).chat.completions.create({ model: 'stale-stream', messages: hi, stream: true }));
    await capture(openai(keys.user).responses.create({ model: 'stale-responses', input: 'hi' }));
    await capture(openai(keys.user).embeddings.create({ model: 'stale-embeddings', input: 'hi' }));
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: keys.user, maxRetries: 0 });
    await capture(anthropic.messages.create({ model: 'stale-translated', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
    // Google refuses a wrong key with 400 API_KEY_INVALID: still the channel's credential, still a 502.
    await capture(openai(keys.user).chat.completions.create({ model: 'stale-gemini', messages: hi }));

    expect(answers.map((answer) => answer.status)).toEqual([502, 502, 502, 502, 502, 502]);
    for (const answer of answers) {
      expect(answer.text).toMatch(/refused the gateway's credentials/);
      expectNoTrace(answer.text, STALE_KEY);
      expectNoTrace(answer.text, STALE_GEMINI_KEY);
    }
    // The simulator did echo the masked key: the redaction is what kept it out.
    const echoed = await fetch(`${upstream.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${STALE_KEY}`, 'content-type': 'application/json' }, body: '{}' });
    expect(await echoed.text()).toContain(STALE_KEY.slice(0, 3) + '*');

    await gateway.recorder.flush();
    const recorded = JSON.stringify(await gateway.database.db.selectFrom('usage_logs').select(['error', 'attempts_json']).execute())
      + JSON.stringify(await gateway.database.db.selectFrom('channels').select(['name', 'status', 'status_reason']).where('name', 'like', 'stale-%').execute());
    expectNoTrace(recorded, STALE_KEY);
    expectNoTrace(recorded, STALE_GEMINI_KEY);
    const channels = await gateway.database.db.selectFrom('channels').select(['name', 'status']).where('name', 'like', 'stale-%').execute();
    expect(channels.every((channel) => channel.status === 'auto_disabled')).toBe(true);
  });
});

describe('/metrics access', () => {
  it('requires METRICS_TOKEN as a Bearer token when it is set', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const secured = await startTestGateway({}, { env: { METRICS_TOKEN: token } });
    try {
      expect((await fetch(`${secured.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${secured.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
      const allowed = await fetch(`${secured.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('gateway_requests_total');
    } finally {
      await secured.dispose();
    }
  });

  it('listens on its own address when METRICS_PORT is set, and not on the API port', async () => {
    const separate = await startTestGateway({}, { env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
    try {
      expect(separate.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${separate.url}/metrics`)).status).toBe(404);
      const scraped = await fetch(`${separate.metricsUrl}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`${separate.metricsUrl}/v1/models`)).status).toBe(404);
    } finally {
      await separate.dispose();
    }
  });
});

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}
