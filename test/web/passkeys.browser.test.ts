// Passkeys in Debian's Chromium with its virtual authenticator (CDP WebAuthn domain through playwright-
// core): register two from the settings page, sign in with one from the sign-in page (no password, no
// two-factor code even with two-factor on), remove one; a captured sign-in answer replayed is refused, and
// an authenticator whose counter went backwards (a clone) is refused.
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, VIEWPORTS, signInThroughForm } from './browser.ts';

const USER = { email: 'pia@example.com', password: 'pia password 1234' };
let gateway: TestGateway;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let recoveryCodes: string[] = [];

const virtualAuthenticator = async (transport: 'internal' | 'usb' = 'internal') => (await cdp.send('WebAuthn.addVirtualAuthenticator', {
  options: { protocol: 'ctap2', transport, hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
})).authenticatorId;

beforeAll(async () => {
  gateway = await startTestGateway({ users: [{ name: 'pia', email: USER.email, password: USER.password }, { name: 'otto', email: 'other@example.com', password: 'other password 123' }] });
  // WebAuthn needs a host name (an IP address cannot be a relying party id); localhost is a secure context.
  base = gateway.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

async function addPasskeyOnPage(name: string) {
  await page.getByLabel('Passkey name').fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('table', { name: 'Your passkeys' }).getByRole('cell', { name, exact: true }).waitFor();
}

async function signOutInPage() {
  await context.clearCookies();
  await page.goto(`${base}/login`);
}

describe('passkeys in the dashboard', { timeout: 90_000 }, () => {
  let firstAuthenticator: string;
  let capturedSignIn: string | undefined;

  it('registers two named passkeys from the settings page', async () => {
    firstAuthenticator = await virtualAuthenticator();
    await signInThroughForm(page, base, USER);
    await page.goto(`${base}/settings`);
    await addPasskeyOnPage('Laptop');
    // The same authenticator is excluded from a second registration: a second one (a security key) is used.
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: firstAuthenticator, enabled: false });
    const second = await virtualAuthenticator('usb');
    await addPasskeyOnPage('Security key');
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: second });
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: firstAuthenticator, enabled: true });
    const rows = await page.getByRole('table', { name: 'Your passkeys' }).getByRole('row').count();
    expect(rows).toBe(3);
    // On a phone the list is cards, every cell labelled with its column, nothing behind a sideways scroll.
    await page.setViewportSize(VIEWPORTS.phone);
    const card = page.locator('[data-layout="cards"]').locator('tbody tr').filter({ hasText: 'Security key' });
    await card.waitFor();
    expect(await card.locator('td').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-label')))).toEqual(['Name', 'Added', 'Last used', '']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('signs in with a passkey, without the password or the two-factor code', async () => {
    // Two-factor on: a passkey sign-in still needs no code (user verification is the second factor).
    const api = new ApiClient(gateway.url);
    expect((await api.post('/api/auth/login', USER)).status).toBe(200);
    const setup = await api.post('/api/me/2fa/setup');
    const enabled = await api.post('/api/me/2fa/enable', { code: await generate({ secret: setup.body.secret }) });
    expect(enabled.status).toBe(200);
    recoveryCodes = enabled.body.recovery_codes;
    await signOutInPage();
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/passkey') && request.method() === 'POST') capturedSignIn = request.postData() ?? undefined;
    });
    const before = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: firstAuthenticator })).credentials[0]!.signCount;
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const after = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: firstAuthenticator })).credentials[0]!.signCount;
    expect(after).toBeGreaterThan(before);
    const stored = await gateway.database.db.selectFrom('passkeys').select(['name', 'counter', 'last_used_at']).where('name', '=', 'Laptop').executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(after);
    expect(stored.last_used_at).not.toBeNull();
  });

  it('refuses a captured sign-in answer sent again', async () => {
    expect(capturedSignIn).toBeTruthy();
    const replay = await fetch(`${base}/api/auth/passkey`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: capturedSignIn! });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as any).error.code).toBe('passkey_not_accepted');
    expect(replay.headers.get('set-cookie')).toBeNull();
  });

  it('refuses an authenticator whose counter went backwards (a clone)', async () => {
    await gateway.database.db.updateTable('passkeys').set({ counter: 1_000_000 }).where('name', '=', 'Laptop').execute();
    await signOutInPage();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'passkey was not accepted' }).waitFor();
    expect((await fetch(`${base}/api/me`, { headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } })).status).toBe(401);
    await gateway.database.db.updateTable('passkeys').set({ counter: 0 }).where('name', '=', 'Laptop').execute();
  });

  it('refuses passkey sign-in for a domain that must use an identity provider', async () => {
    await gateway.database.db.insertInto('settings').values({ key: 'identity_provider_domains', value_json: JSON.stringify({ domains: ['example.com'] }), updated_at: Date.now() }).execute();
    try {
      await signOutInPage();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('alert').filter({ hasText: "sign in with their organisation's identity provider" }).waitFor();
      expect((await context.cookies()).some((cookie) => cookie.name === 'gw_session')).toBe(false);
    } finally {
      await gateway.database.db.deleteFrom('settings').where('key', '=', 'identity_provider_domains').execute();
    }
  });

  it('renames and removes a passkey; a removed passkey no longer signs in', async () => {
    await signInThroughFormWithCode();
    await page.goto(`${base}/settings`);
    page.once('dialog', (dialog) => void dialog.accept('Work laptop'));
    await page.getByRole('button', { name: 'Rename Laptop' }).click();
    await page.getByRole('cell', { name: 'Work laptop', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove Work laptop' }).click();
    await page.getByRole('cell', { name: 'Work laptop', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Security key', exact: true }).waitFor();
    await signOutInPage();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'passkey was not accepted' }).waitFor();
  });

  it('keeps passkeys to their owner: another user cannot rename or remove them (404)', async () => {
    const ids = await gateway.database.db.selectFrom('passkeys').select('id').execute();
    const other = new ApiClient(gateway.url);
    expect((await other.post('/api/auth/login', { email: 'other@example.com', password: 'other password 123' })).status).toBe(200);
    expect((await other.get('/api/me/passkeys')).body.data).toEqual([]);
    for (const { id } of ids) {
      expect((await other.delete(`/api/me/passkeys/${id}`)).status).toBe(404);
      expect((await other.patch(`/api/me/passkeys/${id}`, { name: 'mine' })).status).toBe(404);
    }
    other.sendCsrf = false;
    expect((await other.post('/api/me/passkeys/options')).status).toBe(403);
  });
});

/** Password, then a recovery code for the two-factor step (on since the second test). */
async function signInThroughFormWithCode() {
  await page.goto(`${base}/login`);
  await page.getByLabel(/^Email/).fill(USER.email);
  await page.getByLabel(/^Password/).fill(USER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel(/^Code/).fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}
