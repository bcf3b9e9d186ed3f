// The "Done when", over the real wire: sign-up → the mail arrives → verify → sign in → enable
// two-factor → sign out → sign in with a TOTP code → create a key → the openai SDK calls the gateway with
// it → the call shows in logs, statistics and the wallet. Then the key's life: edit, disable, rotate,
// delete (never enabled again), and password reset ending old sessions.
import OpenAI from 'openai';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';

const UPSTREAM_KEY = 'sk-upstream-done-when';
const ADMIN_KEY = testKey('donewhenadmin');
const PASSWORD = 'a long enough password';
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  smtp = await startTestSmtp();
  gateway = await startTestGateway({
    channels: [{ name: 'sim', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'root', role: 'admin' }],
    keys: [{ name: 'admin', key: ADMIN_KEY, user: 'root' }],
  }, { env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://gateway.test', MAIL_POLL_MS: '100' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await smtp?.close();
  await upstream?.close();
});

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const waitUntil = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not reached');
};

describe('a new user, end to end', () => {
  it('signs up, verifies, turns on 2FA, signs in with TOTP, makes a key, calls with the SDK, and sees the call', async () => {
    const browser = new ApiClient(gateway.url);
    const email = 'dana@example.com';
    expect((await browser.post('/api/auth/signup', { email, password: PASSWORD, name: 'Dana' })).status).toBe(202);
    const mail = await smtp.waitFor(email, /Confirm your e-mail/);
    expect((await browser.post('/api/auth/verify-email', { token: tokenOf(linkIn(mail, '/verify-email?token=')) })).status).toBe(200);
    const login = await browser.post('/api/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const userId = login.body.user.id as number;

    const setup = await browser.post('/api/me/2fa/setup');
    const enabled = await browser.post('/api/me/2fa/enable', { code: await generate({ secret: setup.body.secret }) });
    expect(enabled.body.recovery_codes).toHaveLength(10);
    expect((await browser.post('/api/auth/logout')).status).toBe(200);
    expect((await browser.post('/api/auth/login', { email, password: PASSWORD })).body.error.code).toBe('totp_required');
    // The enabling code is spent; the next time step's code is the one an app shows 30 s later.
    const nextStep = await generate({ secret: setup.body.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const second = await browser.post('/api/auth/login/totp', { code: nextStep });
    expect(second.status).toBe(200);
    expect((await browser.get('/api/me')).body.user.two_factor_enabled).toBe(true);

    // An administrator grants $5 (an admin's sk- key, as scripts do).
    const admin = new ApiClient(gateway.url, ADMIN_KEY);
    expect((await admin.post(`/api/admin/users/${userId}/grant`, { amount_usd: 5, note: 'welcome' })).status).toBe(200);

    const groups = await browser.get('/api/groups');
    expect(groups.body.data).toContainEqual(expect.objectContaining({ name: 'default', models: ['gpt-4o-mini'] }));
    const created = await browser.post('/api/keys', { name: 'laptop', models: ['gpt-4o-mini'], quota_usd: 1 });
    expect(created.status).toBe(201);
    const secret = created.body.key as string;
    expect(secret).toMatch(/^sk-/);
    expect(JSON.stringify((await browser.get('/api/keys')).body)).not.toContain(secret);

    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBeTruthy();

    await waitUntil(async () => ((await browser.get('/api/logs')).body.data as unknown[]).length === 1);
    const logs = await browser.get('/api/logs');
    const entry = logs.body.data[0];
    expect(entry).toMatchObject({ key_name: 'laptop', model: 'gpt-4o-mini', outcome: 'success', status: 200 });
    expect(entry.cost_usd).toBeGreaterThan(0);
    expect(entry).not.toHaveProperty('channel');
    const detail = await browser.get(`/api/logs/${entry.id}`);
    expect(detail.body.attempts.length).toBeGreaterThanOrEqual(1);
    expect(detail.body.attempts[0]).not.toHaveProperty('channel');
    expect((await admin.get(`/api/admin/logs/${entry.id}`)).body.channel).toBe('sim');
    const csv = await browser.get('/api/logs.csv');
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.text.split('\n')[0]).toMatch(/^id,created_at,request_id,key_name,model/);
    expect(csv.text).toContain(',laptop,gpt-4o-mini,');

    await waitUntil(async () => (await browser.get('/api/stats?bucket=minute')).body.totals.requests === 1);
    const stats = await browser.get('/api/stats?bucket=minute');
    expect(stats.body.scope).toBe('user');
    expect(stats.body.by_model[0]).toMatchObject({ model: 'gpt-4o-mini', requests: 1 });
    expect(stats.body.by_key[0]).toMatchObject({ key_name: 'laptop', requests: 1 });
    expect(stats.body.totals.inputTokens).toBeGreaterThan(0);

    await waitUntil(async () => (await browser.get('/api/wallet')).body.requests === 1);
    const wallet = await browser.get('/api/wallet');
    expect(wallet.body.balance_usd).toBeCloseTo(5 - entry.cost_usd, 6);
    expect(wallet.body.total_usage_usd).toBeCloseTo(entry.cost_usd, 6);
    const kinds = (wallet.body.ledger.data as { kind: string; amount_usd: number }[]).map((row) => row.kind);
    expect(kinds).toEqual(expect.arrayContaining(['grant', 'charges']));
  });
});

describe('keys', () => {
  it('edits, disables, enables, rotates and deletes; changes apply on the next request; deleted stays deleted', async () => {
    const browser = new ApiClient(gateway.url);
    const email = 'erin@example.com';
    await browser.post('/api/auth/signup', { email, password: PASSWORD });
    await browser.post('/api/auth/verify-email', { token: tokenOf(linkIn(await smtp.waitFor(email, /Confirm/), '/verify-email?token=')) });
    const login = await browser.post('/api/auth/login', { email, password: PASSWORD });
    await new ApiClient(gateway.url, ADMIN_KEY).post(`/api/admin/users/${login.body.user.id}/grant`, { amount_usd: 1 });
    const created = await browser.post('/api/keys', { name: 'ci' });
    const id = created.body.id as number;
    const call = async (key: string) => {
      const response = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      return response.status;
    };
    expect(await call(created.body.key)).toBe(200);
    expect((await browser.post('/api/keys', { name: 'ci' })).status).toBe(409);
    expect((await browser.post('/api/keys', { name: 'x', group: 'nope' })).body.error.param).toBe('group');
    expect((await browser.patch(`/api/keys/${id}`, { enabled: false })).body.enabled).toBe(false);
    expect(await call(created.body.key)).toBe(401);
    expect((await browser.patch(`/api/keys/${id}`, { enabled: true, name: 'ci-2', ip_allowlist: ['10.0.0.0/8'] })).body).toMatchObject({ enabled: true, name: 'ci-2', ip_allowlist: ['10.0.0.0/8'] });
    expect(await call(created.body.key)).toBe(403);
    await browser.patch(`/api/keys/${id}`, { ip_allowlist: null });
    expect(await call(created.body.key)).toBe(200);
    const rotated = await browser.post(`/api/keys/${id}/rotate`);
    expect(rotated.body.key).not.toBe(created.body.key);
    expect(await call(created.body.key)).toBe(401);
    expect(await call(rotated.body.key)).toBe(200);
    expect((await browser.delete(`/api/keys/${id}`)).status).toBe(200);
    expect(await call(rotated.body.key)).toBe(401);
    expect((await browser.patch(`/api/keys/${id}`, { enabled: true })).status).toBe(404);
    expect((await new ApiClient(gateway.url, ADMIN_KEY).patch(`/api/admin/keys/${id}`, { enabled: true })).status).toBe(404);
    expect(await call(rotated.body.key)).toBe(401);
    expect((await browser.get('/api/keys')).body.data).toEqual([]);
  });
});
