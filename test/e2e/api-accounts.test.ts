// Accounts over the real wire: sign-up → mail (in-process SMTP server) → verify → sign in → two-factor →
// sign out and in with a TOTP code; password reset ends sessions; CSRF, throttling and enumeration.
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';

let smtp: TestSmtp;
let gateway: TestGateway;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  smtp = await startTestSmtp();
  gateway = await startTestGateway({}, { env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://gateway.test', MAIL_POLL_MS: '100' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await smtp?.close();
});

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** Signs up and verifies; returns a signed-in client. */
async function newVerifiedUser(email: string): Promise<ApiClient> {
  const client = new ApiClient(gateway.url);
  const since = smtp.mails.length;
  expect((await client.post('/api/auth/signup', { email, password: PASSWORD, name: 'Test' })).status).toBe(202);
  const mail = await smtp.waitFor(email, /Confirm your e-mail/, since);
  expect((await client.post('/api/auth/verify-email', { token: tokenOf(linkIn(mail, '/verify-email?token=')) })).status).toBe(200);
  expect((await client.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
  return client;
}

describe('the API plumbing', () => {
  it('publishes an OpenAPI 3.1 document generated from the request schemas, and a docs page', async () => {
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json() as any;
    expect(doc.openapi).toBe('3.1.0');
    const signup = doc.paths['/api/auth/signup'].post;
    expect(signup.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(signup.requestBody.content['application/json'].schema.properties.password.minLength).toBe(10);
    expect(doc.paths['/api/me/sessions/{id}'].delete.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    const page = await fetch(`${gateway.url}/api/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/api/openapi.json');
    expect(html).not.toMatch(/https?:\/\/(?!localhost)[a-z]/i);
  });

  it('answers bad input with a 400 in the OpenAI envelope naming the field', async () => {
    const client = new ApiClient(gateway.url);
    const short = await client.post('/api/auth/signup', { email: 'a@example.com', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ type: 'invalid_request_error', param: 'password' });
    const missing = await client.post('/api/auth/signup', { password: PASSWORD });
    expect(missing.body.error).toMatchObject({ param: 'email', code: 'missing_required_parameter' });
    const extra = await client.post('/api/auth/login', { email: 'a@example.com', password: 'x', admin: true });
    expect(extra.status).toBe(400);
    expect((await client.get('/api/me')).body.error).toMatchObject({ code: 'not_signed_in' });
  });
});

describe('sign-up, verification and sign-in', () => {
  it('sends a verification mail with text and HTML parts; unverified accounts can only ask for a new link', async () => {
    const client = new ApiClient(gateway.url);
    const since = smtp.mails.length;
    await client.post('/api/auth/signup', { email: 'Una@Example.com', password: PASSWORD });
    const mail = await smtp.waitFor('una@example.com', /Confirm your e-mail/, since);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(linkIn(mail, '/verify-email?token=')).toMatch(/^http:\/\/gateway\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    const login = await client.post('/api/auth/login', { email: 'una@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: 'una@example.com', email_verified: false });
    expect((await client.patch('/api/me', { name: 'x' })).body.error.code).toBe('email_not_verified');
    const since2 = smtp.mails.length;
    expect((await client.post('/api/auth/resend-verification', { email: 'una@example.com' })).status).toBe(202);
    const again = await smtp.waitFor('una@example.com', /Confirm your e-mail/, since2);
    // The older link stopped working when the new one was issued; the new one works once.
    expect((await client.post('/api/auth/verify-email', { token: tokenOf(linkIn(mail, '/verify-email?token=')) })).status).toBe(400);
    const token = tokenOf(linkIn(again, '/verify-email?token='));
    expect((await client.post('/api/auth/verify-email', { token })).status).toBe(200);
    expect((await client.post('/api/auth/verify-email', { token })).status).toBe(400);
    expect((await client.get('/api/me')).body.user.email_verified).toBe(true);
  });

  it('answers a known and an unknown address alike (sign-up, reset, resend, sign-in)', async () => {
    await newVerifiedUser('known@example.com');
    const anon = new ApiClient(gateway.url);
    for (const [path, body] of [
      ['/api/auth/signup', { password: PASSWORD }],
      ['/api/auth/password-reset', {}],
      ['/api/auth/resend-verification', {}],
      ['/api/auth/login', { password: 'wrong password!' }],
    ] as const) {
      const known = await anon.post(path, { ...body, email: 'known@example.com' });
      const unknown = await anon.post(path, { ...body, email: 'nobody@example.com' });
      expect({ path, status: known.status, body: known.text }).toEqual({ path, status: unknown.status, body: unknown.text });
    }
  });

  it('requires X-CSRF-Token on state changes made with the cookie', async () => {
    const client = await newVerifiedUser('csrf@example.com');
    client.sendCsrf = false;
    const refused = await client.patch('/api/me', { name: 'Mallory' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('csrf_token_invalid');
    expect((await client.call('PATCH', '/api/me', { name: 'Mallory' }, { 'x-csrf-token': 'forged' })).status).toBe(403);
    expect((await client.get('/api/me')).body.user.name).toBe('Test');
    client.sendCsrf = true;
    expect((await client.patch('/api/me', { name: 'Carol' })).status).toBe(200);
    expect((await client.get('/api/me')).body.user.name).toBe('Carol');
  });

  it('sets a hardened cookie and ends the session at sign-out', async () => {
    const client = new ApiClient(gateway.url);
    await newVerifiedUser('cookie@example.com');
    const response = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'cookie@example.com', password: PASSWORD }) });
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http here
    client.cookie = cookie.split(';')[0];
    client.csrf = ((await response.json()) as any).csrf_token;
    expect((await client.get('/api/me')).status).toBe(200);
    const oldCookie = client.cookie;
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    client.cookie = oldCookie;
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('throttles failed sign-ins per account with Retry-After, and a password reset lifts it', async () => {
    const owner = await newVerifiedUser('throttle@example.com');
    const stranger = new ApiClient(gateway.url);
    for (let i = 0; i < 5; i++) expect((await stranger.post('/api/auth/login', { email: 'throttle@example.com', password: `wrong-${i}-password` })).status).toBe(401);
    const blocked = await stranger.post('/api/auth/login', { email: 'throttle@example.com', password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    // Unknown addresses are throttled the same way.
    for (let i = 0; i < 5; i++) await stranger.post('/api/auth/login', { email: 'ghost@example.com', password: `wrong-${i}-password` });
    expect((await stranger.post('/api/auth/login', { email: 'ghost@example.com', password: PASSWORD })).status).toBe(429);
    // The owner resets the password: the old session ends and the lock is gone.
    const since = smtp.mails.length;
    await owner.post('/api/auth/password-reset', { email: 'throttle@example.com' });
    const mail = await smtp.waitFor('throttle@example.com', /Reset your password/, since);
    const link = linkIn(mail, '/reset-password?token=');
    expect(link).toMatch(/^http:\/\/gateway\.test\/reset-password\?token=/);
    expect((await owner.post('/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'a brand new password' })).status).toBe(200);
    expect((await owner.get('/api/me')).status).toBe(401);
    expect((await owner.post('/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'another new password' })).status).toBe(400);
    expect((await owner.post('/api/auth/login', { email: 'throttle@example.com', password: 'a brand new password' })).status).toBe(200);
  });
});

describe('two-factor sign-in', () => {
  it('sets up with a QR code, gives recovery codes once, then asks for a code at sign-in; a code works once', async () => {
    const client = await newVerifiedUser('totp@example.com');
    const setup = await client.post('/api/me/2fa/setup');
    expect(setup.status).toBe(200);
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.body.qr).toMatch(/^data:image\/png;base64,/);
    const secret = setup.body.secret as string;
    expect((await client.post('/api/me/2fa/enable', { code: '000000' })).status).toBe(400);
    const code = await generate({ secret });
    const enabled = await client.post('/api/me/2fa/enable', { code });
    expect(enabled.status).toBe(200);
    const recovery = enabled.body.recovery_codes as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await client.get('/api/me')).body.user.two_factor_enabled).toBe(true);
    expect(JSON.stringify((await client.get('/api/me')).body)).not.toContain(secret);
    expect((await client.post('/api/auth/logout')).status).toBe(200);

    const first = await client.post('/api/auth/login', { email: 'totp@example.com', password: PASSWORD });
    expect(first.status).toBe(401);
    expect(first.body.error.code).toBe('totp_required');
    // The half-signed-in cookie is no session.
    expect((await client.get('/api/me')).status).toBe(401);
    // The code already used to enable 2FA is not accepted again.
    expect((await client.post('/api/auth/login/totp', { code })).status).toBe(401);
    const recoveryLogin = await client.post('/api/auth/login/totp', { code: recovery[0] });
    expect(recoveryLogin.status).toBe(200);
    expect(recoveryLogin.body.user.email).toBe('totp@example.com');
    expect((await client.get('/api/me')).status).toBe(200);
    await client.post('/api/auth/logout');
    await client.post('/api/auth/login', { email: 'totp@example.com', password: PASSWORD });
    expect((await client.post('/api/auth/login/totp', { code: recovery[0] })).status).toBe(401);
  });
});

describe('settings', () => {
  it('keeps notifications and the sidebar layout; lists and revokes sessions', async () => {
    const client = await newVerifiedUser('settings@example.com');
    const other = new ApiClient(gateway.url);
    await other.post('/api/auth/login', { email: 'settings@example.com', password: PASSWORD });
    const saved = await client.put('/api/me/settings', { notifications: { low_balance_usd: 5 }, sidebar: { order: ['keys', 'logs'], hidden: ['playground'] } });
    expect(saved.status).toBe(200);
    expect((await client.get('/api/me')).body.settings).toEqual({ notifications: { low_balance_usd: 5, key_expiry_days: null }, sidebar: { order: ['keys', 'logs'], hidden: ['playground'] } });
    expect((await client.put('/api/me/settings', { sidebar: { order: ['<script>'], hidden: [] } })).body.error.param).toBe('sidebar.order[0]');
    const sessions = (await client.get('/api/me/sessions')).body.data as { id: string; current: boolean }[];
    expect(sessions).toHaveLength(2);
    const otherId = sessions.find((s) => !s.current)!.id;
    expect((await client.delete(`/api/me/sessions/${otherId}`)).status).toBe(200);
    expect((await other.get('/api/me')).status).toBe(401);
    expect((await client.delete(`/api/me/sessions/${otherId}`)).status).toBe(404);
  });

  it('changes the e-mail address only after the new address is confirmed; an address in use is a 409', async () => {
    const client = await newVerifiedUser('old@example.com');
    await newVerifiedUser('taken@example.com');
    expect((await client.patch('/api/me', { email: 'taken@example.com' })).status).toBe(409);
    const since = smtp.mails.length;
    const pending = await client.patch('/api/me', { email: 'new@example.com' });
    expect(pending.body.email_change_pending).toBe(true);
    expect((await client.get('/api/me')).body.user.email).toBe('old@example.com');
    const mail = await smtp.waitFor('new@example.com', /new e-mail/, since);
    expect((await client.post('/api/auth/verify-email', { token: tokenOf(linkIn(mail, '/verify-email?token=')) })).status).toBe(200);
    expect((await client.get('/api/me')).body.user.email).toBe('new@example.com');
  });

  it('changes the password with the current one; other sessions end', async () => {
    const client = await newVerifiedUser('pw@example.com');
    const other = new ApiClient(gateway.url);
    await other.post('/api/auth/login', { email: 'pw@example.com', password: PASSWORD });
    expect((await client.post('/api/me/password', { current_password: 'wrong password', new_password: 'another long password' })).status).toBe(400);
    expect((await client.post('/api/me/password', { current_password: PASSWORD, new_password: 'another long password' })).status).toBe(200);
    expect((await client.get('/api/me')).status).toBe(200);
    expect((await other.get('/api/me')).status).toBe(401);
  });
});
