// Administration at runtime: the first admin from the config file signs in with a password; channels,
// prices, users and settings change without a restart; upstream keys never come back; everything audited.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';

const UPSTREAM_KEY = 'sk-upstream-runtime-admin-secret';
const USER_KEY = testKey('runtimeadminuser');
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let gateway: TestGateway;
let admin: ApiClient;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, models: ['fresh-model'] });
  smtp = await startTestSmtp();
  gateway = await startTestGateway({
    groups: [{ name: 'vip', ratio: 0.5 }],
    users: [
      { name: 'boss', email: 'boss@example.com', password: 'boss password 123', role: 'admin' },
      { name: 'user', email: 'user@example.com', password: 'user password 123', balance: 2 },
    ],
    keys: [{ name: 'main', key: USER_KEY, user: 'user' }],
  }, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100' } });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', { email: 'boss@example.com', password: 'boss password 123' })).status).toBe(200);
});

afterAll(async () => {
  await gateway?.dispose();
  await smtp?.close();
  await upstream?.close();
});

describe('runtime administration', () => {
  it('is for administrators only', async () => {
    const user = new ApiClient(gateway.url);
    await user.post('/api/auth/login', { email: 'user@example.com', password: 'user password 123' });
    for (const path of ['/api/admin/users', '/api/admin/channels', '/api/admin/audit', '/api/admin/logs', '/api/admin/settings']) {
      const answer = await user.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    expect((await new ApiClient(gateway.url, USER_KEY).get('/api/admin/users')).status).toBe(403);
    expect((await new ApiClient(gateway.url).get('/api/admin/users')).status).toBe(401);
  });

  it('creates a channel and a price that serve the next call, without a restart; the upstream key is write-only', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 404 });
    const channel = await admin.post('/api/admin/channels', { name: 'fresh', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['fresh-model'] });
    expect(channel.status).toBe(201);
    expect(channel.text).not.toContain(UPSTREAM_KEY);
    const price = await admin.put('/api/admin/models', { id: 'fresh-model', input_per_mtok: 3, output_per_mtok: 6 });
    expect(price.body).toMatchObject({ id: 'fresh-model', input_per_mtok: 3, output_per_mtok: 6 });
    const answer = await client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).toBeTruthy();

    const listed = await admin.get('/api/admin/channels');
    expect(listed.text).not.toContain(UPSTREAM_KEY);
    expect(listed.text).not.toMatch(/api_key/);
    const edited = await admin.patch(`/api/admin/channels/${channel.body.id}`, { priority: 5, model_mapping: { 'fresh-model': 'fresh-model' } });
    expect(edited.body).toMatchObject({ priority: 5, enabled: true, models: ['fresh-model'] });
    expect((await admin.patch(`/api/admin/channels/${channel.body.id}`, { weight: -1 })).body.error.param).toBe('weight');
    const tested = await admin.post(`/api/admin/channels/${channel.body.id}/test`, {});
    expect(tested.body).toMatchObject({ ok: true, channel: 'fresh' });
    expect((await admin.patch(`/api/admin/channels/${channel.body.id}`, { enabled: false })).body.enabled).toBe(false);
    await expect(client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 503 });
    expect((await admin.delete(`/api/admin/channels/${channel.body.id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/channels`)).body.data).toEqual([]);

    const audit = await admin.get('/api/admin/audit');
    const actions = (audit.body.data as { action: string; actor: string }[]).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['channel.create', 'model.create', 'channel.update', 'channel.delete']));
    const update = (audit.body.data as { action: string; before: any; after: any; actor: string }[]).find((row) => row.action === 'channel.update')!;
    expect(update.actor).toBe('boss@example.com');
    expect(update.before).toHaveProperty('priority');
    expect(audit.text).not.toContain(UPSTREAM_KEY);
  });

  it('a PATCH changes only the fields it names, and leaves an automatically disabled channel disabled', async () => {
    const created = await admin.post('/api/admin/channels', { name: 'partial', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['fresh-model'], groups: ['default', 'vip'], weight: 3, model_mapping: { 'fresh-model': 'up-model' } });
    const id = created.body.id as number;
    await gateway.database.db.updateTable('channels').set({ status: 'auto_disabled', status_reason: 'upstream refused the key' }).where('id', '=', id).execute();
    const patched = await admin.patch(`/api/admin/channels/${id}`, { priority: 2 });
    expect(patched.body).toMatchObject({ priority: 2, weight: 3, groups: ['default', 'vip'], model_mapping: { 'fresh-model': 'up-model' }, enabled: false, status: 'auto_disabled', status_reason: 'upstream refused the key' });
    const rekeyed = await admin.patch(`/api/admin/channels/${id}`, { api_key: 'sk-another-upstream-key-1234' });
    expect(rekeyed.text).not.toContain('sk-another-upstream-key-1234');
    await admin.delete(`/api/admin/channels/${id}`);
  });

  it("sets a channel's chat_format: chat then goes to /v1/responses, its test probes there, and a format its type cannot serve chat in is a 400", async () => {
    const created = await admin.post('/api/admin/channels', { name: 'responses-only', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['fresh-model'], chat_format: 'openai-responses' });
    expect(created.status).toBe(201);
    expect(created.body.chat_format).toBe('openai-responses');
    const id = created.body.id as number;
    await admin.put('/api/admin/models', { id: 'fresh-model', input_per_mtok: 3, output_per_mtok: 6 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
    const sent = upstream.requests.length;
    const answer = await client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).toContain('you said');
    expect(upstream.requests.slice(sent).map((request) => request.path)).toEqual(['/v1/responses']);
    expect((await admin.post(`/api/admin/channels/${id}/test`, {})).body).toMatchObject({ ok: true });
    expect(upstream.requests.at(-1)!.path).toBe('/v1/responses');

    const refused = await admin.post('/api/admin/channels', { name: 'claude-responses', type: 'anthropic', api_key: UPSTREAM_KEY, models: ['fresh-model'], chat_format: 'openai-responses' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'chat_format', code: 'invalid_value' });
    expect((await admin.patch(`/api/admin/channels/${id}`, { chat_format: 'gemini-generate' })).body.error.param).toBe('chat_format');
    expect((await admin.patch(`/api/admin/channels/${id}`, { chat_format: 'no-such-format' })).status).toBe(400);
    // Back to the type's own format: chat completions again.
    expect((await admin.patch(`/api/admin/channels/${id}`, { chat_format: 'openai-chat' })).body.chat_format).toBe('openai-chat');
    await client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(upstream.requests.at(-1)!.path).toBe('/v1/chat/completions');
    await admin.delete(`/api/admin/channels/${id}`);
  });

  it('creates users with a set-password link, disables them (sessions and keys stop), grants and debits', async () => {
    const since = smtp.mails.length;
    const created = await admin.post('/api/admin/users', { email: 'new@example.com', name: 'Newbie' });
    expect(created.status).toBe(201);
    const link = created.body.set_password_url as string;
    expect(link).toMatch(/\/reset-password\?token=/);
    const mail = await smtp.waitFor('new@example.com', /Set your password/, since);
    expect(linkIn(mail, '/reset-password?token=')).toBe(link);
    const newbie = new ApiClient(gateway.url);
    expect((await newbie.post('/api/auth/password-reset/confirm', { token: new URL(link).searchParams.get('token'), password: 'newbie password 1' })).status).toBe(200);
    expect((await newbie.post('/api/auth/login', { email: 'new@example.com', password: 'newbie password 1' })).status).toBe(200);

    const found = await admin.get('/api/admin/users?q=new@');
    expect(found.body.data).toHaveLength(1);
    const id = found.body.data[0].id as number;
    expect((await admin.post(`/api/admin/users/${id}/grant`, { amount_usd: 3, note: 'trial' })).body.balance_usd).toBe(3);
    expect((await admin.post(`/api/admin/users/${id}/grant`, { amount_usd: -1, note: 'correction' })).body.balance_usd).toBe(2);
    expect((await admin.patch(`/api/admin/users/${id}`, { status: 'disabled' })).body.status).toBe('disabled');
    expect((await newbie.get('/api/me')).status).toBe(401);
    expect((await newbie.post('/api/auth/login', { email: 'new@example.com', password: 'newbie password 1' })).status).toBe(403);
    const users = await admin.get('/api/admin/users');
    expect(users.text).not.toMatch(/password_hash|scrypt\$|totp_secret/);
  });

  it('decides which groups users may pick for their own keys', async () => {
    const user = new ApiClient(gateway.url);
    await user.post('/api/auth/login', { email: 'user@example.com', password: 'user password 123' });
    expect((await user.get('/api/groups')).body.data.map((g: { name: string }) => g.name)).toEqual(['default']);
    const refused = await user.post('/api/keys', { name: 'cheap', group: 'vip' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'group', code: 'group_not_available' });
    expect((await admin.put('/api/admin/settings', { self_service_groups: ['default', 'vip'] })).body.self_service_groups).toEqual(['default', 'vip']);
    expect((await user.get('/api/groups')).body.data.map((g: { name: string }) => g.name)).toEqual(['default', 'vip']);
    expect((await user.post('/api/keys', { name: 'cheap', group: 'vip' })).status).toBe(201);
    await admin.put('/api/admin/settings', { self_service_groups: ['default'] });
  });

  it('changes registration and sends a test mail', async () => {
    expect((await admin.put('/api/admin/settings', { registration: { mode: 'closed' } })).body.registration).toEqual({ mode: 'closed', domains: [] });
    expect((await new ApiClient(gateway.url).post('/api/auth/signup', { email: 'x@example.com', password: 'long enough password' })).status).toBe(403);
    await admin.put('/api/admin/settings', { registration: { mode: 'open' } });
    const since = smtp.mails.length;
    expect((await admin.post('/api/admin/settings/test-mail', { to: 'ops@example.com' })).body).toMatchObject({ sent: true, transport: 'smtp' });
    await smtp.waitFor('ops@example.com', /Test mail/, since);
    expect((await admin.get('/api/admin/settings')).body.mail.transport).toBe('smtp');
  });
});

describe('npm run admin -- create', () => {
  it('prints a one-time link that sets the password of a new administrator', async () => {
    const { spawnSync } = await import('node:child_process');
    const { join } = await import('node:path');
    const run = spawnSync(process.execPath, [join(import.meta.dirname, '../../src/admin-cli.ts'), 'create', '--email', 'Chief@Example.com'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${join(gateway.dir, 'gateway.db')}`, PUBLIC_URL: gateway.url, DATA_DIR: gateway.dir },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(run.stdout)![0];
    const chief = new ApiClient(gateway.url);
    const token = new URL(link).searchParams.get('token');
    expect((await chief.post('/api/auth/password-reset/confirm', { token, password: 'chief password 1' })).status).toBe(200);
    expect((await chief.post('/api/auth/password-reset/confirm', { token, password: 'chief password 2' })).status).toBe(400);
    const login = await chief.post('/api/auth/login', { email: 'chief@example.com', password: 'chief password 1' });
    expect(login.body.user).toMatchObject({ role: 'admin', email_verified: true });
    expect((await chief.get('/api/admin/users')).status).toBe(200);
    const bad = spawnSync(process.execPath, [join(import.meta.dirname, '../../src/admin-cli.ts'), 'create'], { env: process.env, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Usage/);
  });
});
