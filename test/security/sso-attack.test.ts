// Attacker's review of sign-in with an identity provider (api-sso-routes.ts, admin-identity-routes.ts) over
// the real wire: a real OpenID Connect provider (oidc-provider) and hostile GitHub servers on ports, the
// gateway on another. What a stranger, a signed-in non-admin and a hostile provider can do.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { RedirectBrowser } from '../helpers/redirect-browser.ts';
import { startOidcIdentityProvider, type TestIdentityProvider } from '../simulators/oidc-identity-provider.ts';
import { startGithubSimulator } from '../simulators/github-oauth-simulator.ts';

let gateway: TestGateway;
let idp: TestIdentityProvider;
let base: string;
let adminClient: ApiClient;
const ADMIN = { email: 'root-sso@example.com', password: 'root sso password 1' };
const USER = { email: 'user-sso@example.com', password: 'user sso password 1' };
const callbackOf = (slug: string) => `${base}/api/auth/sso/${slug}/callback`;

beforeAll(async () => {
  gateway = await startTestGateway({
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: 'user', email: USER.email, password: USER.password },
    ],
  });
  base = gateway.url.replace('127.0.0.1', 'localhost');
  idp = await startOidcIdentityProvider({ redirectUris: [callbackOf('corp')] });
  adminClient = new ApiClient(base);
  expect((await adminClient.post('/api/auth/login', ADMIN)).status).toBe(200);
  expect((await adminClient.post('/api/admin/identity-providers', { slug: 'corp', kind: 'oidc', name: 'Corp', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret })).status).toBe(201);
});

afterAll(async () => {
  await gateway?.dispose();
  await idp?.close();
});

async function toCallback(browser: RedirectBrowser, next: string): Promise<string> {
  const { stoppedAt } = await browser.follow(`${base}/api/auth/sso/corp/start?next=${encodeURIComponent(next)}`, (url) => url.startsWith(callbackOf('corp')));
  expect(stoppedAt).toBeTruthy();
  return stoppedAt!;
}

describe('the return path (next)', () => {
  it('never answers 500 nor signs in half-way, whatever characters next holds', async () => {
    // Characters a Location header cannot carry (Node refuses them): DEL, and anything past Latin-1.
    for (const next of ['/usage\u007f', '/caf\u00e9', '/\u20ac', '/\u{1f600}', '/a\u2028b']) {
      idp.nextPerson = { sub: 'next-chars', email: 'next-chars@example.com', email_verified: true };
      const browser = new RedirectBrowser();
      const callback = await toCallback(browser, next);
      const hop = await browser.get(callback);
      expect(hop.status, JSON.stringify(next)).toBe(303);
      expect(new URL(hop.location!).origin).toBe(base);
      const me = await fetch(`${base}/api/me`, { headers: { cookie: browser.cookieHeader() } });
      expect(me.status).toBe(200);
    }
  });

  it('keeps an ordinary path with its query, encoded characters included', async () => {
    idp.nextPerson = { sub: 'next-plain', email: 'next-plain@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    const hop = await browser.get(await toCallback(browser, '/logs?model=gpt-4o&q=caf%C3%A9'));
    expect(hop.location).toBe(`${base}/logs?model=gpt-4o&q=caf%C3%A9`);
  });
});

describe('who may manage identity providers', () => {
  it('refuses strangers (401), non-admins (403) and a session without its CSRF token (403), changing nothing', async () => {
    const stranger = new ApiClient(base);
    const user = new ApiClient(base);
    expect((await user.post('/api/auth/login', USER)).status).toBe(200);
    const body = { slug: 'evil', kind: 'oidc', name: 'Evil', issuer: 'https://evil.example', client_id: 'x', client_secret: 'y' };
    expect((await stranger.get('/api/admin/identity-providers')).status).toBe(401);
    expect((await stranger.post('/api/admin/identity-providers', body)).status).toBe(401);
    expect((await user.get('/api/admin/identity-providers')).status).toBe(403);
    expect((await user.post('/api/admin/identity-providers', body)).status).toBe(403);
    expect((await user.put('/api/admin/signin-domains', { domains: ['example.com'] })).status).toBe(403);
    const corp = (await adminClient.get('/api/admin/identity-providers')).body.data.find((p: any) => p.slug === 'corp');
    expect((await user.patch(`/api/admin/identity-providers/${corp.id}`, { issuer: 'https://evil.example' })).status).toBe(403);
    expect((await user.delete(`/api/admin/identity-providers/${corp.id}`)).status).toBe(403);
    // The administrator's own session, without the CSRF token: a cross-site form cannot change a provider.
    adminClient.sendCsrf = false;
    try {
      expect((await adminClient.post('/api/admin/identity-providers', body)).status).toBe(403);
      expect((await adminClient.patch(`/api/admin/identity-providers/${corp.id}`, { issuer: 'https://evil.example' })).status).toBe(403);
      expect((await adminClient.delete(`/api/admin/identity-providers/${corp.id}`)).status).toBe(403);
      expect((await adminClient.put('/api/admin/signin-domains', { domains: ['example.com'] })).status).toBe(403);
    } finally {
      adminClient.sendCsrf = true;
    }
    const after = (await adminClient.get('/api/admin/identity-providers')).body.data;
    expect(after.map((p: any) => p.slug)).toEqual(['corp']);
    expect(after[0].issuer).toBe(idp.issuer);
    expect((await adminClient.get('/api/admin/signin-domains')).body).toEqual({ domains: [], providers: [] });
  });

  it('never shows a client secret: not in answers, errors, the audit log nor the public list', async () => {
    const secret = 'very-secret-client-secret-4242';
    const created = await adminClient.post('/api/admin/identity-providers', { slug: 'leak', kind: 'oidc', name: 'Leak', issuer: 'http://127.0.0.1:9/', client_id: 'leak-client', client_secret: secret });
    expect(created.status).toBe(201);
    const changed = await adminClient.patch(`/api/admin/identity-providers/${created.body.id}`, { client_secret: `${secret}-2` });
    // A start against an issuer that cannot be reached: the redirect names a code, nothing else.
    const start = await new RedirectBrowser().get(`${base}/api/auth/sso/leak/start`);
    expect(start.location).toBe(`${base}/login?signin_error=provider_unavailable`);
    const texts = [created.text, changed.text, (await adminClient.get('/api/admin/identity-providers')).text, (await adminClient.get('/api/admin/audit')).text, await (await fetch(`${base}/api/auth/providers`)).text()];
    for (const text of texts) expect(text).not.toContain(secret);
    expect((await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`)).status).toBe(200);
  });

  it('answers 404 alike for a provider id that never existed and one just deleted', async () => {
    const created = await adminClient.post('/api/admin/identity-providers', { slug: 'gone', kind: 'github', name: 'Gone', client_id: 'g', client_secret: 'g' });
    await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`);
    const deleted = await adminClient.patch(`/api/admin/identity-providers/${created.body.id}`, { name: 'x' });
    const never = await adminClient.patch('/api/admin/identity-providers/987654', { name: 'x' });
    expect(deleted.status).toBe(404);
    expect(never.status).toBe(404);
    expect(deleted.body).toEqual(never.body);
  });
});

describe('the public side of sign-in', () => {
  it('answers an unknown provider and a disabled one the same way', async () => {
    const created = await adminClient.post('/api/admin/identity-providers', { slug: 'dark', kind: 'oidc', name: 'Dark', issuer: idp.issuer, client_id: 'x', client_secret: 'y', enabled: false });
    const disabled = await new RedirectBrowser().get(`${base}/api/auth/sso/dark/start`);
    const unknown = await new RedirectBrowser().get(`${base}/api/auth/sso/nothing-here/start`);
    expect(disabled.status).toBe(unknown.status);
    expect(disabled.location).toBe(unknown.location);
    const disabledBack = await new RedirectBrowser().get(`${base}/api/auth/sso/dark/callback?code=x&state=y`);
    const unknownBack = await new RedirectBrowser().get(`${base}/api/auth/sso/nothing-here/callback?code=x&state=y`);
    expect(disabledBack.location).toBe(unknownBack.location);
    await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`);
  });

  it('refuses a flow started for one provider and returned to another', async () => {
    const created = await adminClient.post('/api/admin/identity-providers', { slug: 'gh', kind: 'github', name: 'GH', issuer: 'http://127.0.0.1:9', client_id: 'c', client_secret: 's' });
    idp.nextPerson = { sub: 'cross', email: 'cross@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    const callback = new URL(await toCallback(browser, '/'));
    // The corp flow's code and state brought to the other provider's callback: the gw_signin cookie (path
    // /api/auth/sso) goes with it, and the flow must still not fit.
    const hop = await browser.get(`${base}/api/auth/sso/gh/callback${callback.search}`);
    expect(hop.location).toBe(`${base}/login?signin_error=signin_expired`);
    expect((await fetch(`${base}/api/me`, { headers: { cookie: browser.cookieHeader() } })).status).toBe(401);
    await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`);
  });
});

/** A GitHub whose API answers without end: the gateway must stop reading, not fill its memory. */
async function startEndlessGithub(): Promise<{ baseUrl: string; bytesSent: () => number; close(): Promise<void> }> {
  let sent = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    if (url.pathname === '/login/oauth/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'endless-code');
      back.searchParams.set('state', url.searchParams.get('state')!);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/login/oauth/access_token') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'gho_endless', token_type: 'bearer', scope: 'read:user,user:email' }));
      return;
    }
    // /api/v3/user: a JSON string that never ends.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"id":1,"login":"');
    const chunk = 'a'.repeat(64 * 1024);
    const pump = () => {
      while (!response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
    };
    response.on('close', () => response.destroy());
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytesSent: () => sent,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('a hostile GitHub (Enterprise) server', () => {
  it('stops reading an endless API answer at its limit and refuses the sign-in quickly', async () => {
    const endless = await startEndlessGithub();
    try {
      const created = await adminClient.post('/api/admin/identity-providers', { slug: 'endless', kind: 'github', name: 'Endless', issuer: endless.baseUrl, client_id: 'c', client_secret: 's' });
      expect(created.status).toBe(201);
      const browser = new RedirectBrowser();
      const { stoppedAt } = await browser.follow(`${base}/api/auth/sso/endless/start`, (url) => url.startsWith(callbackOf('endless')));
      const started = Date.now();
      const hop = await browser.get(stoppedAt!);
      expect(hop.location).toBe(`${base}/login?signin_error=provider_error`);
      // The answer is limited to 256 KB: reading stops there, not after 15 s of whatever the server sends.
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(endless.bytesSent()).toBeLessThan(16 * 1024 * 1024);
      await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`);
    } finally {
      await endless.close();
    }
  });
});

describe('a domain bound to its organisation\'s provider', () => {
  it('is refused to every other provider: a GitHub account that still holds a former employee\'s verified address gets nothing', async () => {
    const github = await startGithubSimulator();
    const created = await adminClient.post('/api/admin/identity-providers', { slug: 'github', kind: 'github', name: 'GitHub', issuer: github.baseUrl, client_id: github.clientId, client_secret: github.clientSecret });
    expect(created.status).toBe(201);
    const viaGithub = async (person: typeof github.nextPerson) => {
      github.nextPerson = person;
      const browser = new RedirectBrowser();
      const { stoppedAt } = await browser.follow(`${base}/api/auth/sso/github/start`, (url) => url.startsWith(callbackOf('github')));
      const hop = await browser.get(stoppedAt!);
      const me = await fetch(`${base}/api/me`, { headers: { cookie: browser.cookieHeader() } });
      return { location: hop.location, signedIn: me.status === 200 };
    };
    try {
      // Ex-employee Erin: her corp account, and a GitHub account linked to it while she worked there.
      idp.nextPerson = { sub: 'erin', email: 'erin@corp.test', email_verified: true };
      const first = new RedirectBrowser();
      expect((await first.get(await toCallback(first, '/'))).location).toBe(`${base}/`);
      expect(await viaGithub({ id: 77, login: 'erin', name: 'Erin', emails: [{ email: 'erin@corp.test', primary: true, verified: true }] })).toEqual({ location: `${base}/`, signedIn: true });

      expect((await adminClient.put('/api/admin/signin-domains', { domains: ['corp.test'], providers: ['nobody-such'] })).status).toBe(400);
      const set = await adminClient.put('/api/admin/signin-domains', { domains: ['corp.test'], providers: ['corp'] });
      expect(set.body).toEqual({ domains: ['corp.test'], providers: ['corp'] });
      // The dashboard's form sends the domains alone: the providers stay.
      expect((await adminClient.put('/api/admin/signin-domains', { domains: ['corp.test'] })).body).toEqual({ domains: ['corp.test'], providers: ['corp'] });
      try {
        const refused = `${base}/login?signin_error=identity_provider_required`;
        // Her GitHub identity, already linked; a new GitHub account with the same verified address; and a
        // corp address that has no account yet: none of them gets in through GitHub.
        expect(await viaGithub({ id: 77, login: 'erin', name: 'Erin', emails: [{ email: 'erin@corp.test', primary: true, verified: true }] })).toEqual({ location: refused, signedIn: false });
        expect(await viaGithub({ id: 78, login: 'erin2', name: 'Erin', emails: [{ email: 'erin@corp.test', primary: true, verified: true }] })).toEqual({ location: refused, signedIn: false });
        expect(await viaGithub({ id: 79, login: 'new', name: 'New', emails: [{ email: 'newcomer@corp.test', primary: true, verified: true }] })).toEqual({ location: refused, signedIn: false });
        expect((await adminClient.get('/api/admin/users?q=newcomer')).text).not.toContain('newcomer@corp.test');
        // Other domains still sign in with GitHub, and corp people with their own provider.
        expect(await viaGithub({ id: 80, login: 'octo', name: 'Octo', emails: [{ email: 'octo@elsewhere.test', primary: true, verified: true }] })).toEqual({ location: `${base}/`, signedIn: true });
        idp.nextPerson = { sub: 'erin', email: 'erin@corp.test', email_verified: true };
        const corp = new RedirectBrowser();
        expect((await corp.get(await toCallback(corp, '/'))).location).toBe(`${base}/`);
      } finally {
        await adminClient.put('/api/admin/signin-domains', { domains: [], providers: [] });
      }
    } finally {
      if (created.body?.id) await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`);
      await github.close();
    }
  });
});
