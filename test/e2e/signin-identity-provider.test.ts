// Sign-in with an identity provider over the real wire: the gateway on a port, a real OpenID Connect
// provider (oidc-provider) on another, and GitHub's OAuth simulated; a cookie-keeping client follows the
// redirects. Covers linking by verified address only, state/nonce/PKCE single use and browser binding,
// a forged issuer, open redirects, two-factor after the provider, the domain requirement and the admin API.
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { RedirectBrowser } from '../helpers/redirect-browser.ts';
import { startOidcIdentityProvider, type TestIdentityProvider } from '../simulators/oidc-identity-provider.ts';
import { startGithubSimulator, type GithubSimulator } from '../simulators/github-oauth-simulator.ts';

let gateway: TestGateway;
let idp: TestIdentityProvider;
let github: GithubSimulator;
let base: string;
const admin = { email: 'boss@example.com', password: 'boss password 123' };
const callbackOf = (slug: string) => `${base}/api/auth/sso/${slug}/callback`;
let adminClient: ApiClient;

beforeAll(async () => {
  github = await startGithubSimulator();
  gateway = await startTestGateway({
    // GitHub comes from the config file; the OpenID Connect provider is added over the admin API below.
    identity_providers: [{ slug: 'github', kind: 'github', name: 'GitHub', issuer: github.baseUrl, client_id: github.clientId, client_secret: github.clientSecret }],
    users: [
      { name: 'boss', email: admin.email, password: admin.password, role: 'admin' },
      { name: 'olga', email: 'olga@example.com', password: 'olga password 123' },
    ],
  });
  // The public URL the gateway derives when PUBLIC_URL is unset: WebAuthn and cookies want a host name.
  base = gateway.url.replace('127.0.0.1', 'localhost');
  idp = await startOidcIdentityProvider({ redirectUris: [callbackOf('corp')] });
  adminClient = new ApiClient(base);
  expect((await adminClient.post('/api/auth/login', admin)).status).toBe(200);
  const created = await adminClient.post('/api/admin/identity-providers', { slug: 'corp', kind: 'oidc', name: 'Corp SSO', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await gateway?.dispose();
  await idp?.close();
  await github?.close();
});

/** Starts a sign-in and follows it to the gateway's callback, without requesting it. */
async function toCallback(browser: RedirectBrowser, slug = 'corp', next?: string): Promise<string> {
  const start = `${base}/api/auth/sso/${slug}/start${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`;
  const { stoppedAt } = await browser.follow(start, (url) => url.startsWith(callbackOf(slug)));
  expect(stoppedAt).toBeTruthy();
  return stoppedAt!;
}

/** Requests the callback; answers where the gateway sends the browser. */
async function land(browser: RedirectBrowser, callback: string): Promise<string> {
  const hop = await browser.get(callback);
  expect(hop.status).toBe(303);
  return hop.location!;
}

async function meOf(browser: RedirectBrowser) {
  const response = await fetch(`${base}/api/me`, { headers: { cookie: browser.cookieHeader() } });
  return { status: response.status, body: await response.json() as any };
}

describe('OpenID Connect sign-in', () => {
  it('lists the enabled providers for the sign-in page, never their secrets', async () => {
    const answer = await new ApiClient(base).get('/api/auth/providers');
    expect(answer.body.data.map((p: any) => p.slug).sort()).toEqual(['corp', 'github']);
    expect(JSON.stringify(answer.body)).not.toContain(idp.clientSecret);
    const adminView = await adminClient.get('/api/admin/identity-providers');
    expect(JSON.stringify(adminView.body)).not.toContain(idp.clientSecret);
    expect(JSON.stringify(adminView.body)).not.toContain(github.clientSecret);
    expect(adminView.body.data.find((p: any) => p.slug === 'corp')).toMatchObject({ client_secret_set: true, source: 'admin', redirect_uri: callbackOf('corp') });
    expect(adminView.body.data.find((p: any) => p.slug === 'github')).toMatchObject({ kind: 'github', source: 'config', issuer: github.baseUrl });
    // The secret is stored encrypted, not as given.
    const stored = await gateway.database.db.selectFrom('identity_providers').select('client_secret_encrypted').where('slug', '=', 'github').executeTakeFirstOrThrow();
    expect(stored.client_secret_encrypted).not.toContain(github.clientSecret);
    // Every route is in the OpenAPI document.
    const doc = await (await fetch(`${base}/api/openapi.json`)).json() as any;
    for (const path of ['/api/auth/providers', '/api/auth/sso/{slug}/start', '/api/auth/sso/{slug}/callback', '/api/auth/passkey', '/api/me/passkeys/{id}', '/api/admin/identity-providers/{id}', '/api/admin/signin-domains']) expect(doc.paths[path], path).toBeDefined();
  });

  it('creates a verified account for a new person and signs them in, back to the path they came from', async () => {
    idp.nextPerson = { sub: 'new-1', email: 'Nina@Example.com', email_verified: true, name: 'Nina' };
    const browser = new RedirectBrowser();
    const start = await browser.get(`${base}/api/auth/sso/corp/start?next=${encodeURIComponent('/keys?x=1')}`);
    expect(start.status).toBe(303);
    const authorize = new URL(start.location!);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(callbackOf('corp'));
    expect(browser.cookies.has('gw_signin')).toBe(true);
    const { stoppedAt } = await browser.follow(start.location!, (url) => url.startsWith(callbackOf('corp')));
    expect(await land(browser, stoppedAt!)).toBe(`${base}/keys?x=1`);
    expect(browser.cookies.has('gw_signin')).toBe(false);
    const me = await meOf(browser);
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'nina@example.com', email_verified: true, name: 'Nina' });
  });

  it('links an existing account by its verified address; the account keeps its password', async () => {
    idp.nextPerson = { sub: 'olga-at-corp', email: 'olga@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    expect(await land(browser, await toCallback(browser))).toBe(`${base}/`);
    expect((await meOf(browser)).body.user.email).toBe('olga@example.com');
    expect((await new ApiClient(base).post('/api/auth/login', { email: 'olga@example.com', password: 'olga password 123' })).status).toBe(200);
    // Once linked, the identity signs in that account even after its address changes at the provider.
    idp.nextPerson = { sub: 'olga-at-corp', email: 'olga.new@example.com', email_verified: false };
    const again = new RedirectBrowser();
    await land(again, await toCallback(again));
    expect((await meOf(again)).body.user.email).toBe('olga@example.com');
  });

  it('never links or creates an account from an address the provider has not verified', async () => {
    idp.nextPerson = { sub: 'mallory', email: 'boss@example.com', email_verified: false };
    const browser = new RedirectBrowser();
    expect(await land(browser, await toCallback(browser))).toBe(`${base}/login?signin_error=email_not_verified`);
    expect((await meOf(browser)).status).toBe(401);
    idp.nextPerson = { sub: 'mallory-2', email: 'unknown-unverified@example.com', email_verified: false };
    const second = new RedirectBrowser();
    expect(await land(second, await toCallback(second))).toBe(`${base}/login?signin_error=email_not_verified`);
    const users = await adminClient.get('/api/admin/users?q=unknown-unverified');
    expect(JSON.stringify(users.body)).not.toContain('unknown-unverified@example.com');
  });

  it('takes a pre-registered, never-verified account away from whoever created it', async () => {
    const attacker = new ApiClient(base);
    expect((await attacker.post('/api/auth/signup', { email: 'victim@example.com', password: 'attacker password 1' })).status).toBe(202);
    await expect.poll(async () => (await new ApiClient(base).post('/api/auth/login', { email: 'victim@example.com', password: 'attacker password 1' })).status).toBe(200);
    expect((await attacker.post('/api/auth/login', { email: 'victim@example.com', password: 'attacker password 1' })).status).toBe(200);
    idp.nextPerson = { sub: 'victim', email: 'victim@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    await land(browser, await toCallback(browser));
    expect((await meOf(browser)).body.user).toMatchObject({ email: 'victim@example.com', email_verified: true });
    // The attacker's session ended and their password no longer signs in.
    expect((await attacker.get('/api/me')).status).toBe(401);
    expect((await new ApiClient(base).post('/api/auth/login', { email: 'victim@example.com', password: 'attacker password 1' })).status).toBe(401);
  });

  it('accepts a return once: a replayed callback finds no flow', async () => {
    idp.nextPerson = { sub: 'replay', email: 'replay@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    const callback = await toCallback(browser);
    const cookie = browser.cookies.get('gw_signin')!;
    await land(browser, callback);
    browser.cookies.set('gw_signin', cookie);
    expect(await land(browser, callback)).toBe(`${base}/login?signin_error=signin_expired`);
  });

  it('refuses a return in another browser (login CSRF), and a code from another flow', async () => {
    idp.nextPerson = { sub: 'csrf-victim', email: 'csrf@example.com', email_verified: true };
    const attacker = new RedirectBrowser();
    const attackerCallback = await toCallback(attacker);
    // The victim's browser has no flow: the attacker's link signs nobody in.
    const victim = new RedirectBrowser();
    expect(await land(victim, attackerCallback)).toBe(`${base}/login?signin_error=signin_expired`);
    expect((await meOf(victim)).status).toBe(401);
    // The victim's browser started a flow of its own: the attacker's code and state still do not fit it.
    await victim.follow(`${base}/api/auth/sso/corp/start`, (url) => url.startsWith(idp.issuer));
    expect(await land(victim, attackerCallback)).toBe(`${base}/login?signin_error=provider_error`);
    expect((await meOf(victim)).status).toBe(401);
  });

  it('refuses an answer whose iss names another issuer', async () => {
    idp.nextPerson = { sub: 'issuer-test', email: 'issuer@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    const callback = new URL(await toCallback(browser));
    expect(callback.searchParams.get('iss')).toBe(idp.issuer);
    callback.searchParams.set('iss', 'https://evil.example');
    expect(await land(browser, callback.href)).toBe(`${base}/login?signin_error=provider_error`);
    expect((await meOf(browser)).status).toBe(401);
  });

  it('never redirects off the site, whatever next says', async () => {
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example', '/%0d%0aLocation:x', 'javascript:alert(1)']) {
      idp.nextPerson = { sub: 'redirect-test', email: 'redirect@example.com', email_verified: true };
      const browser = new RedirectBrowser();
      const target = await land(browser, await toCallback(browser, 'corp', next));
      expect(new URL(target).origin).toBe(base);
    }
  });

  it('asks for the two-factor code after the provider when the account has it on', async () => {
    idp.nextPerson = { sub: 'tina', email: 'tina@example.com', email_verified: true };
    const browser = new RedirectBrowser();
    await land(browser, await toCallback(browser));
    const tina = new ApiClient(base);
    tina.cookie = `gw_session=${browser.cookies.get('gw_session')}`;
    tina.csrf = (await tina.get('/api/me')).body.csrf_token;
    const setup = await tina.post('/api/me/2fa/setup');
    const enabled = await tina.post('/api/me/2fa/enable', { code: await generate({ secret: setup.body.secret }) });
    expect(enabled.status).toBe(200);
    const next = new RedirectBrowser();
    expect(await land(next, await toCallback(next, 'corp', '/usage'))).toBe(`${base}/login?step=totp&next=%2Fusage`);
    // Only the pending stage so far: nothing but the second step is open to it.
    expect((await meOf(next)).status).toBe(401);
    const second = new ApiClient(base);
    second.cookie = `gw_session=${next.cookies.get('gw_session')}`;
    expect((await second.post('/api/auth/login/totp', { code: '000000' })).status).toBe(401);
    const step = await second.post('/api/auth/login/totp', { code: enabled.body.recovery_codes[0] });
    expect(step.status).toBe(200);
    expect(step.body.user.email).toBe('tina@example.com');
  });

  it('creates no account when registration is closed, but still signs in existing ones', async () => {
    expect((await adminClient.put('/api/admin/settings', { registration: { mode: 'closed', domains: [] } })).status).toBeLessThan(300);
    try {
      idp.nextPerson = { sub: 'late', email: 'late@example.com', email_verified: true };
      const browser = new RedirectBrowser();
      expect(await land(browser, await toCallback(browser))).toBe(`${base}/login?signin_error=registration_closed`);
      idp.nextPerson = { sub: 'new-1', email: 'nina@example.com', email_verified: true };
      const nina = new RedirectBrowser();
      expect(await land(nina, await toCallback(nina))).toBe(`${base}/`);
    } finally {
      await adminClient.put('/api/admin/settings', { registration: { mode: 'open', domains: [] } });
    }
  });
});

describe('GitHub sign-in', () => {
  it('signs in with the primary address only when GitHub has verified it', async () => {
    github.nextPerson = { id: 4242, login: 'octo', name: 'Octo Cat', emails: [{ email: 'octo@example.com', primary: true, verified: true }, { email: 'other@example.com', primary: false, verified: true }] };
    const browser = new RedirectBrowser();
    const start = await browser.get(`${base}/api/auth/sso/github/start`);
    const authorize = new URL(start.location!);
    expect(authorize.pathname).toBe('/login/oauth/authorize');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const { stoppedAt } = await browser.follow(start.location!, (url) => url.startsWith(callbackOf('github')));
    expect(await land(browser, stoppedAt!)).toBe(`${base}/`);
    expect((await meOf(browser)).body.user).toMatchObject({ email: 'octo@example.com', email_verified: true, name: 'Octo Cat' });

    github.nextPerson = { id: 4343, login: 'sneaky', name: null, emails: [{ email: 'boss@example.com', primary: true, verified: false }] };
    const sneaky = new RedirectBrowser();
    expect(await land(sneaky, await toCallback(sneaky, 'github'))).toBe(`${base}/login?signin_error=email_not_verified`);
    expect((await meOf(sneaky)).status).toBe(401);
  });

  it('refuses a replayed GitHub code', async () => {
    github.nextPerson = { id: 4242, login: 'octo', name: 'Octo Cat', emails: [{ email: 'octo@example.com', primary: true, verified: true }] };
    const browser = new RedirectBrowser();
    const callback = await toCallback(browser, 'github');
    const cookie = browser.cookies.get('gw_signin')!;
    await land(browser, callback);
    const refusedBefore = github.refusedExchanges;
    browser.cookies.delete('gw_session');
    browser.cookies.set('gw_signin', cookie);
    expect(await land(browser, callback)).toBe(`${base}/login?signin_error=signin_expired`);
    // The flow was gone before the code could be tried again.
    expect(github.refusedExchanges).toBe(refusedBefore);
  });
});

describe('requiring an identity provider for a domain', () => {
  it('refuses password sign-in for the domain, the same for known and unknown addresses', async () => {
    const user = new ApiClient(base);
    expect((await user.post('/api/auth/login', { email: 'olga@example.com', password: 'olga password 123' })).status).toBe(200);
    const nobody = new ApiClient(base);
    expect((await nobody.put('/api/admin/signin-domains', { domains: ['example.com'] })).status).toBe(401);
    expect((await user.put('/api/admin/signin-domains', { domains: ['example.com'] })).status).toBe(403);
    expect((await adminClient.put('/api/admin/signin-domains', { domains: ['not a domain'] })).status).toBe(400);
    const set = await adminClient.put('/api/admin/signin-domains', { domains: ['Example.COM'] });
    expect(set.body).toEqual({ domains: ['example.com'], providers: [] });
    try {
      const known = await new ApiClient(base).post('/api/auth/login', { email: 'olga@example.com', password: 'olga password 123' });
      const unknown = await new ApiClient(base).post('/api/auth/login', { email: 'nobody-here@example.com', password: 'whatever password' });
      expect(known.status).toBe(403);
      expect(known.body.error.code).toBe('identity_provider_required');
      // Decided by the domain alone: an unknown address gets the very same answer.
      expect(unknown.status).toBe(403);
      expect(unknown.body).toEqual(known.body);
      // The provider still signs the same person in.
      idp.nextPerson = { sub: 'olga-at-corp', email: 'olga@example.com', email_verified: true };
      const browser = new RedirectBrowser();
      expect(await land(browser, await toCallback(browser))).toBe(`${base}/`);
      expect((await meOf(browser)).body.user.email).toBe('olga@example.com');
    } finally {
      await adminClient.put('/api/admin/signin-domains', { domains: [] });
    }
    expect((await new ApiClient(base).post('/api/auth/login', { email: 'olga@example.com', password: 'olga password 123' })).status).toBe(200);
  });
});

describe('the admin API for identity providers', () => {
  it('validates, refuses duplicates, keeps the secret when it is left out, audits, and unlinks on delete', async () => {
    const bad = await adminClient.post('/api/admin/identity-providers', { slug: 'x', kind: 'oidc', name: 'X', client_id: 'a', client_secret: 'b' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('issuer');
    expect((await adminClient.post('/api/admin/identity-providers', { slug: 'Bad Slug', kind: 'github', name: 'X', client_id: 'a', client_secret: 'b' })).status).toBe(400);
    const dup = await adminClient.post('/api/admin/identity-providers', { slug: 'corp', kind: 'github', name: 'X', client_id: 'a', client_secret: 'b' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('slug_taken');
    const created = await adminClient.post('/api/admin/identity-providers', { slug: 'temp', kind: 'oidc', name: 'Temp', issuer: idp.issuer, client_id: 'nobody', client_secret: 'temp-secret-value' });
    const changed = await adminClient.patch(`/api/admin/identity-providers/${created.body.id}`, { name: 'Temporary', enabled: false });
    expect(changed.body).toMatchObject({ name: 'Temporary', enabled: false, client_secret_set: true });
    expect((await new ApiClient(base).get('/api/auth/providers')).body.data.map((p: any) => p.slug)).not.toContain('temp');
    const browser = new RedirectBrowser();
    expect((await browser.get(`${base}/api/auth/sso/temp/start`)).location).toBe(`${base}/login?signin_error=unknown_provider`);
    const audit = await adminClient.get('/api/admin/audit');
    expect(JSON.stringify(audit.body)).toContain('identity_provider.update');
    expect(JSON.stringify(audit.body)).not.toContain('temp-secret-value');
    expect((await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`)).status).toBe(200);
    expect((await adminClient.delete(`/api/admin/identity-providers/${created.body.id}`)).status).toBe(404);
    expect((await adminClient.patch('/api/admin/identity-providers/999999', { name: 'x' })).status).toBe(404);
  });
});
