// The operator's view over the real wire (issue 31, item 2): the platform overview from the roll-ups, all
// logs with user names, filters, detail and CSV, each channel's balance and model list as its upstream
// (the simulators) reports them, and testing every channel at once, for administrators only.
import { createServer } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const OPENAI_KEY = 'sk-upstream-ops-openai';
const ANTHROPIC_KEY = 'sk-ant-upstream-ops';
const GEMINI_KEY = 'gemini-upstream-ops';
const ADMIN = { email: 'ops-root@example.com', password: 'ops root password 1' };
const ALICE = { email: 'alice.ops@example.com', password: 'alice ops password 1' };
const BOB = { email: 'bob-ops@example.com', password: 'bob ops password 1' };
const ALICE_KEY = testKey('opsalice');
const BOB_KEY = testKey('opsbob');
const ANTHROPIC_MODELS = Array.from({ length: 25 }, (_, i) => `claude-test-${String(i).padStart(2, '0')}`);
const GEMINI_MODELS = Array.from({ length: 60 }, (_, i) => `gemini-test-${String(i).padStart(2, '0')}`);

let billed: OpenAISimulator;
let granted: OpenAISimulator;
let plain: OpenAISimulator;
let claude: AnthropicSimulator;
let gemini: GeminiSimulator;
let gateway: TestGateway;
let admin: ApiClient;
let alice: ApiClient;
let bob: ApiClient;
let channelIds: Record<string, number> = {};

async function portNobodyListensOn(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  [billed, granted, plain, claude, gemini] = await Promise.all([
    startOpenAISimulator({ apiKey: OPENAI_KEY, billing: { kind: 'subscription', hardLimitUsd: 100, usedUsd: 12.34 } }),
    startOpenAISimulator({ apiKey: OPENAI_KEY, billing: { kind: 'credit_grants', grantedUsd: 50, usedUsd: 7.5 } }),
    startOpenAISimulator({ apiKey: OPENAI_KEY }),
    startAnthropicSimulator({ apiKey: ANTHROPIC_KEY, models: ANTHROPIC_MODELS }),
    startGeminiSimulator({ apiKey: GEMINI_KEY, models: GEMINI_MODELS }),
  ]);
  const closedPort = await portNobodyListensOn();
  gateway = await startTestGateway({
    channels: [
      { name: 'billed', type: 'openai', base_url: billed.url, api_key: OPENAI_KEY, models: ['gpt-4o-mini'] },
      { name: 'granted', type: 'openai', base_url: granted.url, api_key: OPENAI_KEY, models: ['gpt-4o'], priority: -1 },
      { name: 'plain', type: 'openai', base_url: plain.url, api_key: OPENAI_KEY, models: ['gpt-4o'], priority: -2 },
      { name: 'claude', type: 'anthropic', base_url: claude.url, api_key: ANTHROPIC_KEY, models: ['claude-test-00'] },
      { name: 'gem', type: 'gemini', base_url: gemini.url, api_key: GEMINI_KEY, models: ['gemini-test-00'] },
      { name: 'closed', type: 'openai', base_url: `http://127.0.0.1:${closedPort}`, api_key: OPENAI_KEY, models: ['broken-model'] },
      { name: 'revoked', type: 'openai', base_url: plain.url, api_key: 'sk-not-the-upstream-key', models: ['revoked-model'] },
      { name: 'off', type: 'openai', base_url: plain.url, api_key: OPENAI_KEY, models: ['gpt-4o'], enabled: false },
    ],
    models: ['gpt-4o-mini', 'gpt-4o', 'claude-test-00', 'gemini-test-00', 'broken-model', 'revoked-model'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 2 })),
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: 'Alice Ops', email: ALICE.email, password: ALICE.password, balance: 10 },
      { name: 'Bob Ops', email: BOB.email, password: BOB.password, balance: 10 },
    ],
    keys: [{ name: 'alice-laptop', key: ALICE_KEY, user: 'Alice Ops' }, { name: 'bob-ci', key: BOB_KEY, user: 'Bob Ops' }],
  });
  admin = new ApiClient(gateway.url);
  alice = new ApiClient(gateway.url);
  bob = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  expect((await alice.post('/api/auth/login', ALICE)).status).toBe(200);
  expect((await bob.post('/api/auth/login', BOB)).status).toBe(200);
  const channels = (await admin.get<{ data: { id: number; name: string }[] }>('/api/admin/channels')).body.data;
  channelIds = Object.fromEntries(channels.map((channel) => [channel.name, channel.id]));

  // Traffic: Alice three calls, Bob one, and one that fails at the closed port.
  const aliceClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: ALICE_KEY, maxRetries: 0 });
  const bobClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: BOB_KEY, maxRetries: 0 });
  for (let i = 0; i < 3; i += 1) await aliceClient.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello number ${i}` }] });
  await bobClient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi there' }] });
  await expect(aliceClient.chat.completions.create({ model: 'broken-model', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([billed?.close(), granted?.close(), plain?.close(), claude?.close(), gemini?.close()]);
});

type Overview = {
  traffic: { requests: number; errors: number };
  cost_usd: number;
  revenue: { total_usd: number; topups: { count: number; amount_usd: number; refunded_usd: number }; redemptions: { count: number; amount_usd: number } };
  series: { requests: number }[];
  top_users: { user_id: number; name: string; email: string; requests: number; cost_usd: number }[];
  top_models: { model: string; requests: number }[];
  channels: { id: number; name: string; status: string; breaker: string; failed_attempts_last_hour: number; last_error: { status: number; code: string | null } | null }[];
};

describe('administrators only', () => {
  it('refuses users, their keys and the signed-out, and a state change without the CSRF token', async () => {
    const paths = ['/api/admin/overview', `/api/admin/channels/${channelIds.billed}/balance`, `/api/admin/channels/${channelIds.billed}/upstream-models`, '/api/admin/logs.csv'];
    for (const path of paths) {
      expect({ path, status: (await alice.get(path)).status }).toEqual({ path, status: 403 });
      expect({ path, status: (await new ApiClient(gateway.url, ALICE_KEY).get(path)).status }).toEqual({ path, status: 403 });
      expect({ path, status: (await new ApiClient(gateway.url).get(path)).status }).toEqual({ path, status: 401 });
    }
    expect((await alice.post('/api/admin/channels/test-all', {})).status).toBe(403);
    const noCsrf = new ApiClient(gateway.url);
    await noCsrf.post('/api/auth/login', ADMIN);
    noCsrf.sendCsrf = false;
    expect((await noCsrf.post('/api/admin/channels/test-all', {})).status).toBe(403);
    // A user cannot reach other people's calls or filter by channel through their own log.
    expect((await alice.get(`/api/logs?channel_id=${channelIds.billed}`)).status).toBe(400);
  });
});

describe('platform overview', () => {
  it('sums traffic, cost, top users and models and revenue over the period, and shows channel health', async () => {
    // Revenue: one code redeemed by Bob ($5) and one card top-up of $20 of which $5 was refunded.
    const created = await admin.post<{ codes: string[] }>('/api/admin/redemption-codes', { count: 1, amount_usd: 5 });
    expect(created.status).toBe(201);
    expect((await bob.post('/api/wallet/redeem', { code: created.body.codes[0] })).status).toBe(200);
    const bobId = (await bob.get<{ user: { id: number } }>('/api/me')).body.user.id;
    const now = Date.now();
    await gateway.database.db.insertInto('payments').values({ user_id: bobId, provider: 'stripe', provider_session_id: 'cs_test_overview', amount_micros: 20_000_000, refunded_micros: 5_000_000, status: 'refunded', created_at: now - 1000, completed_at: now - 900, payment_intent: null, receipt_url: null, checkout_url: null, updated_at: now }).execute();
    // A payment completed before the period is not this period's revenue.
    await gateway.database.db.insertInto('payments').values({ user_id: bobId, provider: 'stripe', provider_session_id: 'cs_test_old', amount_micros: 99_000_000, status: 'completed', created_at: now - 3 * 86_400_000, completed_at: now - 3 * 86_400_000, payment_intent: null, receipt_url: null, checkout_url: null, updated_at: null }).execute();

    let overview: Overview | undefined;
    await expect.poll(async () => {
      const answer = await admin.get<Overview>('/api/admin/overview');
      overview = answer.body;
      return answer.body.traffic?.requests;
    }, { timeout: 10_000 }).toBe(5);
    overview = overview!;
    expect(overview.traffic.errors).toBe(1);
    expect(overview.series.reduce((sum, point) => sum + point.requests, 0)).toBe(5);
    expect(overview.revenue).toEqual({ total_usd: 20, topups: { count: 1, amount_usd: 15, refunded_usd: 5 }, redemptions: { count: 1, amount_usd: 5 } });
    expect(overview.top_users.map((user) => [user.name, user.email.toLowerCase(), user.requests])).toEqual([['Alice Ops', ALICE.email.toLowerCase(), 4], ['Bob Ops', BOB.email, 1]]);
    expect(overview.top_users[0]!.cost_usd).toBeGreaterThan(0);
    expect(overview.top_models.map((model) => model.model)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'gpt-4o']));
    expect(overview.cost_usd).toBeCloseTo(overview.top_models.reduce((sum, model) => sum + (model as unknown as { cost_usd: number }).cost_usd, 0), 9);
    const closed = overview.channels.find((channel) => channel.name === 'closed')!;
    // Each attempt of the failed call (the relay retried it) counts against the channel.
    const failedCall = (await admin.get<{ data: { id: number }[] }>('/api/admin/logs?outcome=error')).body.data[0]!;
    const attempts = (await admin.get<{ attempts: { channel: string }[] }>(`/api/admin/logs/${failedCall.id}`)).body.attempts;
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.every((attempt) => attempt.channel === 'closed')).toBe(true);
    expect(closed).toMatchObject({ status: 'enabled', breaker: 'closed', failed_attempts_last_hour: attempts.length });
    expect(closed.last_error).toMatchObject({ status: null });
    expect(overview.channels.find((channel) => channel.name === 'billed')).toMatchObject({ failed_attempts_last_hour: 0, last_error: null });
    expect(overview.channels.find((channel) => channel.name === 'off')).toMatchObject({ status: 'disabled' });
  });

  it('counts nothing in a period without calls, and refuses a period it cannot show, naming the field', async () => {
    const empty = await admin.get<Overview>(`/api/admin/overview?from=${Date.now() - 10 * 86_400_000}&to=${Date.now() - 9 * 86_400_000}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ traffic: { requests: 0 }, cost_usd: 0, top_users: [], top_models: [] });
    for (const [query, param] of [['from=2&to=1', 'from'], ['from=yesterday', 'from'], [`bucket=minute&from=${Date.now() - 3 * 86_400_000}`, 'bucket'], ['bucket=week', 'bucket'], [`from=0&to=${Date.now()}`, 'from'], ['extra=1', null]] as const) {
      const answer = await admin.get(`/api/admin/overview?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      if (param) expect(answer.body.error.param).toBe(param);
    }
  });
});

describe('all logs', () => {
  type Row = { id: number; user_name: string; user_email: string; key_name: string; channel: string | null; model: string; status: number; error_code: string | null };
  const page = async (query: string) => {
    const answer = await admin.get<{ data: Row[]; next_cursor: string | null }>(`/api/admin/logs?${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it("shows every user's calls with their names and e-mails, and filters by user, key, model, channel, status and error code", async () => {
    const all = await page('limit=100');
    expect(all.data).toHaveLength(5);
    expect(new Set(all.data.map((row) => row.user_name))).toEqual(new Set(['Alice Ops', 'Bob Ops']));
    expect(all.data.find((row) => row.user_name === 'Bob Ops')).toMatchObject({ user_email: BOB.email, key_name: 'bob-ci', channel: 'granted' });

    // The e-mail in any case; an e-mail of nobody matches nothing.
    expect((await page(`user=${encodeURIComponent(ALICE.email.toUpperCase())}`)).data.map((row) => row.user_name)).toEqual(['Alice Ops', 'Alice Ops', 'Alice Ops', 'Alice Ops']);
    expect((await page('user=nobody%40example.com')).data).toEqual([]);
    const bobKey = (await admin.get<{ data: { id: number; name: string }[] }>('/api/admin/keys')).body.data.find((key) => key.name === 'bob-ci')!.id;
    expect((await page(`key_id=${bobKey}`)).data.map((row) => row.key_name)).toEqual(['bob-ci']);
    expect((await page('model=gpt-4o-mini')).data).toHaveLength(3);
    const failed = await page(`channel_id=${channelIds.closed}`);
    expect(failed.data).toHaveLength(1);
    expect(failed.data[0]).toMatchObject({ channel: 'closed', model: 'broken-model', status: 502 });
    expect(failed.data[0]!.error_code).toMatch(/^GW_ERR_/);
    expect((await page('status=502')).data.map((row) => row.id)).toEqual([failed.data[0]!.id]);
    expect((await page(`error_code=${failed.data[0]!.error_code}`)).data.map((row) => row.id)).toEqual([failed.data[0]!.id]);
    expect((await page('outcome=error')).data).toHaveLength(1);
    expect((await page(`from=${Date.now() + 60_000}`)).data).toEqual([]);
    for (const [query, param] of [['status=42', 'status'], ['channel_id=abc', 'channel_id'], ['user=', 'user'], ['limit=501', 'limit']] as const) {
      const answer = await admin.get(`/api/admin/logs?${query}`);
      expect({ query, status: answer.status, param: answer.body.error?.param }).toEqual({ query, status: 400, param });
    }
  });

  it('pages with a cursor, and shows one call in detail with the user and the charge calculation', async () => {
    const first = await page('limit=2');
    expect(first.data).toHaveLength(2);
    const second = await page(`limit=2&cursor=${first.next_cursor}`);
    const third = await page(`limit=2&cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeNull();
    expect(new Set([...first.data, ...second.data, ...third.data].map((row) => row.id)).size).toBe(5);

    const call = (await page('model=gpt-4o')).data[0]!;
    const detail = await admin.get(`/api/admin/logs/${call.id}`);
    expect(detail.body).toMatchObject({ id: call.id, user_name: 'Bob Ops', user_email: BOB.email, channel: 'granted', calculation: { lines: expect.any(Array) } });
    expect(detail.body.calculation.lines.length).toBeGreaterThan(0);
    expect((await admin.get('/api/admin/logs/999999')).status).toBe(404);
  });

  it('exports the filtered calls as CSV with user names and e-mails', async () => {
    const csv = await admin.get('/api/admin/logs.csv?model=gpt-4o-mini');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\n');
    const header = lines[0]!.split(',');
    expect(header).toEqual(expect.arrayContaining(['user_name', 'user_email', 'key_name', 'channel', 'error_code', 'cost_usd']));
    expect(lines).toHaveLength(4);
    const email = header.indexOf('user_email');
    const channel = header.indexOf('channel');
    for (const line of lines.slice(1)) {
      expect(line.split(',')[email]!.toLowerCase()).toBe(ALICE.email.toLowerCase());
      expect(line.split(',')[channel]).toBe('billed');
    }
    expect((await admin.get('/api/admin/logs.csv')).text.trim().split('\n')).toHaveLength(6);
    expect((await admin.get('/api/admin/logs.csv?user=nobody%40example.com')).text.trim().split('\n')).toEqual([lines[0]]);
    expect((await admin.get('/api/admin/logs.csv?status=abc')).status).toBe(400);
  });
});

describe('channel balance', () => {
  it('reads the subscription and usage of a new-api style upstream, or its credit summary', async () => {
    const subscription = await admin.get(`/api/admin/channels/${channelIds.billed}/balance`);
    expect(subscription.body).toMatchObject({ channel: 'billed', available: true, balance_usd: 87.66, limit_usd: 100, used_usd: 12.34, source: 'subscription' });
    const usageCall = billed.requests.find((request) => request.path === '/v1/dashboard/billing/usage')!;
    expect(usageCall.query.get('start_date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(subscription.text).not.toContain(OPENAI_KEY);

    const grants = await admin.get(`/api/admin/channels/${channelIds.granted}/balance`);
    expect(grants.body).toMatchObject({ available: true, balance_usd: 42.5, limit_usd: 50, used_usd: 7.5, source: 'credit_grants' });
  });

  it('says "not available" for upstreams without a balance, and 404 for a channel that is not there', async () => {
    const plainAnswer = await admin.get(`/api/admin/channels/${channelIds.plain}/balance`);
    expect(plainAnswer.body).toMatchObject({ available: false, reason: 'the upstream does not report a balance (HTTP 404)' });
    expect((await admin.get(`/api/admin/channels/${channelIds.claude}/balance`)).body).toMatchObject({ available: false, reason: 'a anthropic upstream has no balance API' });
    const closed = await admin.get(`/api/admin/channels/${channelIds.closed}/balance`);
    expect(closed.body.available).toBe(false);
    expect(closed.body.reason).toMatch(/ECONNREFUSED/);
    expect((await admin.get('/api/admin/channels/999999/balance')).status).toBe(404);
    expect((await admin.get('/api/admin/channels/abc/balance')).status).toBe(400);
  });
});

describe("a channel's upstream model list", () => {
  type Listed = { available: boolean; models: { id: string; served: boolean }[]; status?: number | null; reason?: string };
  it('lists OpenAI, Anthropic (every page) and Gemini (every page) models, marking the ones served', async () => {
    const openai = (await admin.get<Listed>(`/api/admin/channels/${channelIds.billed}/upstream-models`)).body;
    expect(openai.available).toBe(true);
    expect(openai.models).toContainEqual({ id: 'gpt-4o-mini', served: true });
    expect(openai.models).toContainEqual({ id: 'gpt-4o', served: false });

    const anthropic = (await admin.get<Listed>(`/api/admin/channels/${channelIds.claude}/upstream-models`)).body;
    expect(anthropic.models.map((model) => model.id)).toEqual(ANTHROPIC_MODELS);
    expect(anthropic.models.filter((model) => model.served).map((model) => model.id)).toEqual(['claude-test-00']);

    const google = (await admin.get<Listed>(`/api/admin/channels/${channelIds.gem}/upstream-models`)).body;
    expect(google.models.map((model) => model.id)).toEqual(GEMINI_MODELS);
  });

  it("reports the upstream's refusal or silence instead of a list", async () => {
    const refused = (await admin.get<Listed>(`/api/admin/channels/${channelIds.revoked}/upstream-models`)).body;
    expect(refused).toMatchObject({ available: false, status: 401 });
    expect(refused.reason).toContain('Incorrect API key');
    expect(refused.reason).not.toContain('sk-not-the-upstream-key');
    expect((await admin.get<Listed>(`/api/admin/channels/${channelIds.closed}/upstream-models`)).body).toMatchObject({ available: false, status: null });
  });
});

describe('test all channels', () => {
  type Result = { channel: string; ok: boolean; status: number | null; latency_ms: number; error: string | null; reenabled: boolean };
  const channel = async (name: string) => (await admin.get<{ data: { name: string; status: string }[] }>('/api/admin/channels')).body.data.find((row) => row.name === name)!;

  it('tests every channel with the truth of the single test, and re-enables only what the gateway disabled', async () => {
    // The gateway disables 'revoked' itself when its upstream refuses the key; then the key is fixed.
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: ALICE_KEY, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'revoked-model', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
    await expect.poll(async () => (await channel('revoked')).status).toBe('auto_disabled');
    expect((await admin.patch(`/api/admin/channels/${channelIds.revoked}`, { api_key: OPENAI_KEY })).status).toBe(200);

    const answer = await admin.post<{ data: Result[]; passed: number; failed: number; skipped: unknown[] }>('/api/admin/channels/test-all', { reenable: true });
    expect(answer.status).toBe(200);
    const byName = Object.fromEntries(answer.body.data.map((result) => [result.channel, result]));
    expect(Object.keys(byName).sort()).toEqual(['billed', 'claude', 'closed', 'gem', 'granted', 'off', 'plain', 'revoked']);
    for (const name of ['billed', 'granted', 'plain', 'claude', 'gem', 'off']) expect({ name, ok: byName[name]!.ok, status: byName[name]!.status }).toEqual({ name, ok: true, status: 200 });
    expect(byName.closed).toMatchObject({ ok: false, status: null, reenabled: false });
    expect(byName.closed!.error).toMatch(/ECONNREFUSED/);
    expect(byName.revoked).toMatchObject({ ok: true, reenabled: true });
    expect(answer.body).toMatchObject({ passed: 7, failed: 1, skipped: [] });
    expect((await channel('revoked')).status).toBe('enabled');
    expect((await channel('off')).status).toBe('disabled');
    const audit = (await admin.get<{ data: { action: string; target: string }[] }>('/api/admin/audit')).body.data;
    expect(audit.filter((row) => row.action === 'channel.reenable').map((row) => row.target)).toEqual([`channel:${channelIds.revoked}`]);
  });

  it('tests only the channels named, and refuses an unknown one naming the field', async () => {
    const answer = await admin.post<{ data: Result[] }>('/api/admin/channels/test-all', { channel_ids: [channelIds.billed, channelIds.closed] });
    expect(answer.body.data.map((result) => [result.channel, result.ok])).toEqual([['billed', true], ['closed', false]]);
    const unknown = await admin.post('/api/admin/channels/test-all', { channel_ids: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.param).toBe('channel_ids');
    expect((await admin.post('/api/admin/channels/test-all', { channel_ids: [] })).status).toBe(400);
    expect((await admin.post('/api/admin/channels/test-all', { nonsense: true })).status).toBe(400);
  });
});

describe('every setting of the config file, through the admin API, checked', () => {
  it("keeps a model's fallbacks, hedging and limits, and refuses unknown, circular or unbounded ones naming the field", async () => {
    const model = { id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2, fallbacks: ['gpt-4o'], hedge_after_ms: 1500, context_window: 128000, max_output_tokens: 16384, capabilities: { tools: false } };
    const saved = await admin.put('/api/admin/models', model);
    expect(saved.status).toBe(200);
    const listed = (await admin.get<{ data: Record<string, unknown>[] }>('/api/admin/models')).body.data.find((row) => row.id === 'gpt-4o-mini');
    expect(listed).toMatchObject({ fallbacks: ['gpt-4o'], hedge_after_ms: 1500, context_window: 128000, max_output_tokens: 16384, capabilities: { tools: false } });
    for (const [change, param] of [
      [{ fallbacks: ['no-such-model'] }, 'fallbacks'],
      [{ fallbacks: ['gpt-4o-mini'] }, 'fallbacks'],
      [{ fallbacks: ['gpt-4o', 'gpt-4o'] }, 'fallbacks'],
      [{ hedge_after_ms: 600_001 }, 'hedge_after_ms'],
      [{ hedge_after_ms: -1 }, 'hedge_after_ms'],
      [{ context_window: 100_000_001 }, 'context_window'],
      [{ max_images: 1_001 }, 'max_images'],
    ] as const) {
      const answer = await admin.put('/api/admin/models', { ...model, ...change });
      expect({ change, status: answer.status, param: answer.body.error?.param }).toEqual({ change, status: 400, param });
    }
    // Nothing refused was stored.
    expect((await admin.get<{ data: Record<string, unknown>[] }>('/api/admin/models')).body.data.find((row) => row.id === 'gpt-4o-mini')).toMatchObject({ fallbacks: ['gpt-4o'], hedge_after_ms: 1500 });
  });

  it("sets a channel's timeouts and prefill, and a user's rate limits, within bounds", async () => {
    const id = channelIds.plain;
    const edited = await admin.patch(`/api/admin/channels/${id}`, { timeouts: { connect_ms: 2000, idle_ms: 60000 }, supports_prefill: true });
    expect(edited.body).toMatchObject({ timeouts: { connect_ms: 2000, idle_ms: 60000 }, supports_prefill: true });
    const tooLong = await admin.patch(`/api/admin/channels/${id}`, { timeouts: { connect_ms: 3_600_001 } });
    expect({ status: tooLong.status, param: tooLong.body.error.param }).toEqual({ status: 400, param: 'timeouts.connect_ms' });
    expect((await admin.get<{ data: { id: number; timeouts?: unknown }[] }>('/api/admin/channels')).body.data.find((row) => row.id === id)!.timeouts).toEqual({ connect_ms: 2000, idle_ms: 60000 });
    expect((await admin.patch(`/api/admin/channels/${id}`, { timeouts: {} })).body.timeouts ?? {}).toEqual({});

    const bobId = (await bob.get<{ user: { id: number } }>('/api/me')).body.user.id;
    expect((await admin.patch(`/api/admin/users/${bobId}`, { rpm_limit: 60, tpm_limit: 100000 })).body).toMatchObject({ rpm_limit: 60, tpm_limit: 100000 });
    const huge = await admin.patch(`/api/admin/users/${bobId}`, { rpm_limit: 2 ** 31 });
    expect({ status: huge.status, param: huge.body.error.param }).toEqual({ status: 400, param: 'rpm_limit' });
    expect((await admin.get(`/api/admin/users/${bobId}`)).body).toMatchObject({ rpm_limit: 60 });
  });
});
