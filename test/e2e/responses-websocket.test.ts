// The Responses API's WebSocket mode (GET /v1/responses with Upgrade, as Codex's built-in provider opens it):
// response.create messages, each event one text frame, several responses on one connection with
// previous_response_id across them (store: false: the connection remembers), on a translated (Anthropic)
// and a passthrough (OpenAI) channel; authenticated before the upgrade, metered and logged like HTTP (one
// usage row per response, and one count in gateway_requests_total like a POST), what the gateway changed
// (HTTP's x-gateway-warnings) in the Response objects' metadata, refusals as error events that leave the
// connection open, connection caps and the idle timeout.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const KEY = testKey('respws');
const CAPPED = testKey('respwscap');
const LATER_DISABLED = testKey('respwsoff');
const PRICES = { input_per_mtok: 3, output_per_mtok: 15 };
const BETA = { 'openai-beta': 'responses_websockets=2026-02-06' };

let anthropic: AnthropicSimulator;
let openai: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-ws-anthropic' });
  openai = await startOpenAISimulator({ apiKey: 'sk-ws-openai' });
  gateway = await startTestGateway({
    channels: [
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-ws-anthropic', models: ['claude-sonnet-4-6'] },
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-ws-openai', models: ['gpt-4o-mini', 'gpt-plain'], model_mapping: { 'gpt-plain': 'gpt-4o-mini' } },
    ],
    models: [{ id: 'claude-sonnet-4-6', ...PRICES }, { id: 'gpt-4o-mini', ...PRICES }, { id: 'gpt-plain', ...PRICES, capabilities: { reasoning: false } }],
    users: [{ name: 'wes', balance: 100 }, { name: 'cap', balance: 100 }, { name: 'boss', email: 'boss@example.com', password: 'boss password 123', role: 'admin' }],
    keys: [{ name: 'wes', key: KEY, user: 'wes' }, { name: 'cap', key: CAPPED, user: 'cap' }, { name: 'off', key: LATER_DISABLED, user: 'wes' }],
  }, { env: { RESPONSES_WS_MAX_PER_KEY: '2', RESPONSES_WS_IDLE_TIMEOUT_MS: '1500' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropic?.close();
  await openai?.close();
});

const wsUrl = () => `${gateway.url.replace(/^http/, 'ws')}/v1/responses`;

/** A connection whose frames are collected as parsed events, each frame checked to be one JSON object. */
async function connect(key = KEY): Promise<{ socket: WebSocket; events: Array<Record<string, unknown>>; next(type: string): Promise<Record<string, unknown>> }> {
  const socket = new WebSocket(wsUrl(), { headers: { authorization: `Bearer ${key}`, ...BETA } });
  const events: Array<Record<string, unknown>> = [];
  const waiting: Array<{ type: string; resolve: (event: Record<string, unknown>) => void; from: number }> = [];
  socket.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false);
    const event = JSON.parse(String(data)) as Record<string, unknown>;
    events.push(event);
    for (const wait of [...waiting]) {
      if (event.type === wait.type) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(event);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, events, next: (type) => new Promise((resolve) => waiting.push({ type, resolve, from: events.length })) };
}

const create = (body: Record<string, unknown>) => JSON.stringify({ type: 'response.create', ...body });

async function usageRows(keyName: string) {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', keyName).orderBy('id').execute();
}

describe('the Responses WebSocket mode', () => {
  it.each([['claude-sonnet-4-6', 'an Anthropic channel'], ['gpt-4o-mini', 'an OpenAI channel']])('%s (%s): two responses on one connection, the second continuing the first', async (model) => {
    const before = (await usageRows('wes')).length;
    const { socket, events, next } = await connect();
    const first = next('response.completed');
    socket.send(create({ model, store: false, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'remember the word lighthouse' }] }] }));
    const one = (await first).response as { id: string; output: Array<{ type: string }>; usage: { input_tokens: number; output_tokens: number } };
    expect(events[0]!.type).toBe('response.created');
    expect(events.map((e) => e.type)).toContain('response.output_text.delta');
    expect(one.usage.output_tokens).toBeGreaterThan(0);
    const firstCount = events.length;

    const second = next('response.completed');
    socket.send(create({ model, store: false, previous_response_id: one.id, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'which word?' }] }] }));
    await second;
    expect(events[firstCount]!.type).toBe('response.created');
    // The upstream got the first turn back: the connection carried it.
    const upstream = model.startsWith('claude') ? anthropic : openai;
    expect(JSON.stringify(upstream.requests.at(-1)!.body)).toContain('remember the word lighthouse');
    socket.close();
    const rows = await usageRows('wes');
    expect(rows.length - before).toBe(2);
    for (const row of rows.slice(before)) {
      expect([row.status, row.endpoint]).toEqual([200, '/v1/responses']);
      expect(Number(row.cost_micros)).toBeGreaterThan(0);
    }
  });

  it('counts each response in gateway_requests_total like a POST, and carries what the gateway changed in the Responses\' metadata', async () => {
    const metric = async (model: string, status: string) => {
      const text = await (await fetch(`${gateway.url}/metrics`)).text();
      return Number(new RegExp(`^gateway_requests_total\\{route="/v1/responses",model="${model}",status="${status}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    };
    const [okBefore, refusedBefore] = [await metric('gpt-plain', '200'), await metric('', '400')];
    const { socket, events, next } = await connect();
    const done = next('response.completed');
    socket.send(create({ model: 'gpt-plain', store: false, metadata: { session: 's1' }, reasoning: { summary: 'auto' }, input: 'hi' }));
    await done;
    // OpenAI refuses reasoning settings for gpt-4o-mini: the gateway dropped them, as its entry says.
    expect(openai.requests.at(-1)!.body).not.toHaveProperty('reasoning');
    const carrying = events.filter((event) => event.response !== undefined);
    expect(carrying.map((event) => event.type)).toEqual(expect.arrayContaining(['response.created', 'response.completed']));
    for (const event of carrying) {
      expect((event.response as { metadata: unknown }).metadata).toEqual({ session: 's1', 'x-gateway-warnings': 'reasoning dropped: gpt-plain does not reason' });
    }
    const refused = next('error');
    socket.send(create({ input: 'no model' }));
    expect(await refused).toMatchObject({ status: 400 });
    socket.close();
    expect(await metric('gpt-plain', '200')).toBe(okBefore + 1);
    expect(await metric('', '400')).toBe(refusedBefore + 1);
  });

  it('warms up on generate: false (as Codex does first): an empty completed response, nothing sent upstream or charged, and a continuation may name it', async () => {
    const before = (await usageRows('wes')).length;
    anthropic.reset();
    const { socket, next } = await connect();
    const warm = next('response.completed');
    socket.send(create({ model: 'claude-sonnet-4-6', store: false, generate: false, input: [{ type: 'message', role: 'user', content: 'the word is kelp' }] }));
    const response = (await warm).response as { id: string; output: unknown[]; usage: { input_tokens: number } };
    expect([response.output, response.usage.input_tokens]).toEqual([[], 0]);
    expect(anthropic.requests).toEqual([]);
    const done = next('response.completed');
    socket.send(create({ model: 'claude-sonnet-4-6', store: false, previous_response_id: response.id, input: 'which word?' }));
    await done;
    expect(JSON.stringify(anthropic.requests.at(-1)!.body)).toContain('the word is kelp');
    socket.close();
    expect((await usageRows('wes')).length - before).toBe(1);
  });

  it('answers a refusal with an error event and stays open for the next response', async () => {
    const { socket, next } = await connect();
    const error = next('error');
    socket.send(create({ model: 'no-such-model', input: 'hi' }));
    expect(await error).toMatchObject({ type: 'error', status: 404, error: { type: expect.any(String), message: expect.stringMatching(/no-such-model/) } });
    const bad = next('error');
    socket.send(JSON.stringify({ type: 'session.update' }));
    expect(await bad).toMatchObject({ status: 400, error: { code: 'invalid_value', param: 'type' } });
    const done = next('response.completed');
    socket.send(create({ model: 'claude-sonnet-4-6', input: 'still there?' }));
    expect(await done).toMatchObject({ type: 'response.completed' });
    socket.close();
  });

  it('refuses before the upgrade: no key (401), a plain GET (426), too many connections for the key (429)', async () => {
    const status = (headers: Record<string, string>) => new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(wsUrl(), { headers });
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => reject(new Error('upgraded')));
    });
    expect(await status(BETA)).toBe(401);
    expect((await fetch(wsUrl().replace(/^ws/, 'http'), { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(426);
    const a = await connect(CAPPED);
    const b = await connect(CAPPED);
    expect(await status({ authorization: `Bearer ${CAPPED}` })).toBe(429);
    a.socket.close();
    await new Promise((resolve) => a.socket.once('close', resolve));
    // The place is given back once a connection closes.
    const c = await connect(CAPPED);
    b.socket.close();
    c.socket.close();
  });

  it('checks the key again for every response: one disabled while the connection is open is refused, and the connection closed', async () => {
    const { socket, next } = await connect(LATER_DISABLED);
    const ok = next('response.completed');
    socket.send(create({ model: 'claude-sonnet-4-6', input: 'hi' }));
    await ok;
    const admin = new ApiClient(gateway.url);
    expect((await admin.post('/api/auth/login', { email: 'boss@example.com', password: 'boss password 123' })).status).toBe(200);
    const key = ((await admin.get('/api/admin/keys')).body as { data: Array<{ id: number; name: string }> }).data.find((k) => k.name === 'off')!;
    expect((await admin.patch(`/api/admin/keys/${key.id}`, { enabled: false })).status).toBe(200);
    const refused = next('error');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(create({ model: 'claude-sonnet-4-6', input: 'again' }));
    expect(await refused).toMatchObject({ type: 'error', status: 401 });
    expect(await closed).toBe(1008);
  });

  it('closes a connection left idle', async () => {
    const { socket } = await connect();
    const [code, reason] = await new Promise<[number, string]>((resolve) => socket.once('close', (c, r) => resolve([c, String(r)])));
    expect([code, reason]).toEqual([1000, 'idle timeout']);
  });
});
