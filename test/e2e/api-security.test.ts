// Security of every /api route, driven by the OpenAPI document so a new route cannot be forgotten:
// a cookie request without the CSRF token is refused (403) and changes nothing; another user's ids give
// 404 and change nothing; no answer and no log line carries a password, a hash, a TOTP secret or an
// upstream key.
import { Writable } from 'node:stream';
import OpenAI from 'openai';
import { generate } from 'otplib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient, type ApiAnswer } from '../helpers/api-client.ts';
import { hashApiKey } from '../../src/accounts/api-key-format.ts';

const UPSTREAM_KEY = 'sk-upstream-never-shown-4242';
const PASSWORDS = { alice: 'alice secret password', bob: 'bob secret password', admin: 'admin secret password' };
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let gateway: TestGateway;
const logLines: string[] = [];
const answers: { what: string; text: string }[] = [];
let alice: ApiClient;
let bob: ApiClient;
let aliceKey: { id: number; secret: string };
let totpSecret: string;

function remember(what: string, answer: ApiAnswer): ApiAnswer {
  const headers: string[] = [];
  answer.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  answers.push({ what, text: `${answer.text}\n${headers.join('\n')}` });
  return answer;
}

async function signUp(email: string, password: string): Promise<ApiClient> {
  const client = new ApiClient(gateway.url);
  const since = smtp.mails.length;
  remember('signup', await client.post('/api/auth/signup', { email, password }));
  const mail = await smtp.waitFor(email, /Confirm/, since);
  remember('verify', await client.post('/api/auth/verify-email', { token: new URL(linkIn(mail, '/verify-email?token=')).searchParams.get('token') }));
  remember('login', await client.post('/api/auth/login', { email, password }));
  return client;
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  smtp = await startTestSmtp();
  const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  gateway = await startTestGateway({
    channels: [{ name: 'sim', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'root', email: 'root@example.com', password: PASSWORDS.admin, role: 'admin' }],
  }, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100' }, logger: pino({ level: 'trace' }, sink) });
  alice = await signUp('alice@example.com', PASSWORDS.alice);
  bob = await signUp('bob@example.com', PASSWORDS.bob);
  const admin = new ApiClient(gateway.url);
  remember('admin login', await admin.post('/api/auth/login', { email: 'root@example.com', password: PASSWORDS.admin }));
  const aliceId = (await alice.get('/api/me')).body.user.id;
  await admin.post(`/api/admin/users/${aliceId}/grant`, { amount_usd: 1 });
  const created = await alice.post('/api/keys', { name: 'alice-key' });
  aliceKey = { id: created.body.id, secret: created.body.key };
  const setup = await alice.post('/api/me/2fa/setup');
  totpSecret = setup.body.secret;
  remember('2fa enable', await alice.post('/api/me/2fa/enable', { code: await generate({ secret: totpSecret }) }));
  await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: aliceKey.secret, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  for (let i = 0; i < 100 && ((await alice.get('/api/logs')).body.data as unknown[]).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
});

afterAll(async () => {
  await gateway?.dispose();
  await smtp?.close();
  await upstream?.close();
});

interface Operation { method: string; path: string; security: unknown[] }

async function operations(): Promise<Operation[]> {
  const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json() as { paths: Record<string, Record<string, { security: unknown[] }>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, security: op.security })));
}

async function aliceState() {
  return { me: (await alice.get('/api/me')).body, keys: (await alice.get('/api/keys')).body, sessions: ((await alice.get('/api/me/sessions')).body.data as unknown[]).length };
}

describe('every /api route', () => {
  it('covers the routes the issue names', async () => {
    const paths = new Set((await operations()).map((op) => `${op.method} ${op.path}`));
    for (const expected of ['POST /api/auth/signup', 'POST /api/auth/login/totp', 'PUT /api/me/settings', 'DELETE /api/keys/{id}', 'GET /api/logs.csv', 'GET /api/wallet', 'GET /api/admin/audit', 'PATCH /api/admin/channels/{id}']) {
      expect(paths).toContain(expected);
    }
  });

  it('refuses a cookie request that changes something without X-CSRF-Token, and nothing changes', async () => {
    const before = await aliceState();
    const sessionId = ((await alice.get('/api/me/sessions')).body.data as { id: string }[])[0]!.id;
    alice.sendCsrf = false;
    let checked = 0;
    try {
      for (const op of await operations()) {
        if (op.method === 'GET' || op.security.length === 0) continue;
        checked++;
        const path = op.path.replace('{id}', op.path.startsWith('/api/me/sessions') ? sessionId : String(aliceKey.id)).replace('{name}', 'default');
        const answer = remember(`${op.method} ${path} without csrf`, await alice.call(op.method, path, {}));
        expect({ route: `${op.method} ${op.path}`, status: answer.status, code: answer.body.error?.code }).toEqual({ route: `${op.method} ${op.path}`, status: 403, code: 'csrf_token_invalid' });
      }
    } finally {
      alice.sendCsrf = true;
    }
    expect(checked).toBeGreaterThan(25);
    expect(await aliceState()).toEqual(before);
  });

  it("answers 404 to another user's ids and changes nothing", async () => {
    const before = await aliceState();
    const logId = (await alice.get('/api/logs')).body.data[0].id as number;
    const sessionId = ((await alice.get('/api/me/sessions')).body.data as { id: string }[])[0]!.id;
    const attempts: [string, string, unknown?][] = [
      ['PATCH', `/api/keys/${aliceKey.id}`, { enabled: false }],
      ['POST', `/api/keys/${aliceKey.id}/rotate`, {}],
      ['DELETE', `/api/keys/${aliceKey.id}`],
      ['GET', `/api/logs/${logId}`],
      ['GET', `/api/stats?key_id=${aliceKey.id}`],
      ['DELETE', `/api/me/sessions/${sessionId}`],
    ];
    for (const [method, path, body] of attempts) {
      const answer = remember(`bob ${method} ${path}`, await bob.call(method, path, body));
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
    }
    expect(JSON.stringify((await bob.get('/api/logs')).body.data)).toBe('[]');
    expect((await bob.get(`/api/logs?key_id=${aliceKey.id}`)).body.data).toEqual([]);
    expect((await bob.get('/api/logs.csv')).text.trim().split('\n')).toHaveLength(1);
    expect((await bob.get('/api/keys')).body.data).toEqual([]);
    expect(await aliceState()).toEqual(before);
    // Her key still works.
    expect((await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${aliceKey.secret}` } })).status).toBe(200);
  });

  it('reads garbage ids, cursors and filters as 400s naming the field, never 500', async () => {
    for (const [path, param] of [['/api/keys/abc', 'id'], ['/api/logs?cursor=%%%', 'cursor'], ['/api/logs?limit=100000', 'limit'], ['/api/logs?from=yesterday', 'from'], ['/api/stats?bucket=week', 'bucket'], ['/api/wallet?cursor=zz', 'cursor']] as const) {
      const answer = await alice.call(path.startsWith('/api/keys') ? 'PATCH' : 'GET', path, path.startsWith('/api/keys') ? {} : undefined);
      expect({ path, status: answer.status, param: answer.body.error?.param }).toEqual({ path, status: 400, param });
    }
  });

  it('never shows a password, a hash, a TOTP secret or an upstream key in an answer or a log line', async () => {
    // Visit every GET route as Alice and as the admin, so each answer is checked.
    const admin = new ApiClient(gateway.url);
    await admin.post('/api/auth/login', { email: 'root@example.com', password: PASSWORDS.admin });
    for (const op of await operations()) {
      if (op.method !== 'GET' || op.path.includes('{')) continue;
      remember(`alice ${op.path}`, await alice.get(op.path));
      remember(`admin ${op.path}`, await admin.get(op.path));
    }
    const passwordHashes = (await gateway.database.db.selectFrom('users').select('password_hash').execute()).map((row) => row.password_hash).filter(Boolean) as string[];
    const secrets = [...Object.values(PASSWORDS), UPSTREAM_KEY, totpSecret, hashApiKey(aliceKey.secret), ...passwordHashes, 'scrypt$'];
    const totpSecretEncrypted = (await gateway.database.db.selectFrom('users').select('totp_secret_encrypted').where('email', '=', 'alice@example.com').executeTakeFirstOrThrow()).totp_secret_encrypted!;
    secrets.push(totpSecretEncrypted);
    for (const { what, text } of answers) {
      for (const secret of secrets) expect({ what, leaks: text.includes(secret) }).toEqual({ what, leaks: false });
    }
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      for (const secret of [...secrets, aliceKey.secret]) expect({ line: line.slice(0, 200), leaks: line.includes(secret) }).toEqual({ line: line.slice(0, 200), leaks: false });
    }
  });
});

describe('cross-site forms', () => {
  it('cannot sign anyone in with a text/plain body that parses as JSON', async () => {
    const body = `{"email":"bob@example.com","password":"bob secret=password"}`;
    const response = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.code).toBe('unsupported_media_type');
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
