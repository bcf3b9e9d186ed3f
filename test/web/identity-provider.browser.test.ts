// Sign-in with an identity provider in Debian's Chromium: an administrator adds the provider on the admin
// page, a person clicks "Sign in with …" on the sign-in page, passes through a real OpenID Connect provider
// (oidc-provider, in process) and lands in the dashboard; an account with two-factor on is asked for its
// code on return; a refused sign-in comes back to the sign-in page with a sentence saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { startOidcIdentityProvider, type TestIdentityProvider } from '../simulators/oidc-identity-provider.ts';
import { launchBrowser, VIEWPORTS, signInThroughForm } from './browser.ts';

const ADMIN = { email: 'idp-admin@example.com', password: 'idp admin password 1' };
let gateway: TestGateway;
let idp: TestIdentityProvider;
let browser: Browser;
let base: string;

beforeAll(async () => {
  gateway = await startTestGateway({ users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }] });
  base = gateway.url.replace('127.0.0.1', 'localhost');
  idp = await startOidcIdentityProvider({ redirectUris: [`${base}/api/auth/sso/corp/callback`] });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await idp?.close();
});

async function freshPage(): Promise<Page> {
  const page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

describe('identity-provider sign-in in the browser', { timeout: 90_000 }, () => {
  it('an administrator adds the provider on the admin page; its secret never shows again', async () => {
    const page = await freshPage();
    await signInThroughForm(page, base, ADMIN);
    await page.goto(`${base}/admin/sign-in`);
    const form = page.getByRole('form', { name: 'Add an identity provider' });
    await form.getByLabel('Name', { exact: true }).fill('Corp SSO');
    await form.getByLabel('Slug', { exact: true }).fill('corp');
    await form.getByLabel('Issuer URL').fill(idp.issuer);
    await form.getByLabel('Client ID').fill(idp.clientId);
    await form.getByLabel('Client secret').fill(idp.clientSecret);
    await form.getByRole('button', { name: 'Add provider' }).click();
    const table = page.getByRole('table', { name: 'Identity providers' });
    await table.getByText(`${base}/api/auth/sso/corp/callback`).waitFor();
    expect(await page.content()).not.toContain(idp.clientSecret);
    await page.context().close();
  });

  it('an administrator names the providers that vouch for a domain, and can go back to any provider', async () => {
    const page = await freshPage();
    await signInThroughForm(page, base, ADMIN);
    await page.goto(`${base}/admin/sign-in`);
    const rule = async () => page.evaluate(async () => (await fetch('/api/admin/signin-domains')).json());
    await page.getByLabel('Domains', { exact: false }).first().fill('corp.example');
    await page.getByRole('combobox', { name: 'Providers that vouch for these domains' }).click({ force: true });
    await page.getByRole('option', { name: 'Corp SSO' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save domains' }).click();
    await expect.poll(rule).toEqual({ domains: ['corp.example'], providers: ['corp'] });
    // Back to no rule, so the rest of this file signs in as before.
    await page.reload();
    await page.getByLabel('Domains', { exact: false }).first().fill('');
    await page.getByRole('combobox', { name: 'Providers that vouch for these domains' }).click({ force: true });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save domains' }).click();
    await expect.poll(rule).toEqual({ domains: [], providers: [] });
    await page.context().close();
  });

  it('a new person signs in through the provider and lands in the dashboard', async () => {
    idp.nextPerson = { sub: 'zoe', email: 'zoe@example.com', email_verified: true, name: 'Zoe' };
    const page = await freshPage();
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(new URL(page.url()).origin).toBe(base);
    const me = await page.evaluate(async () => (await fetch('/api/me')).json());
    expect(me.user).toMatchObject({ email: 'zoe@example.com', email_verified: true });
    // Settings lists the linked identity; it is Zoe's only way in, so unlinking it is refused with the reason.
    await page.goto(`${base}/settings`);
    const linked = page.getByRole('table', { name: 'Linked identities' });
    await linked.getByRole('cell', { name: 'Corp SSO', exact: true }).waitFor();
    await linked.getByRole('button', { name: 'Unlink Corp SSO' }).click();
    await page.getByText('This is your last way to sign in').waitFor();
    await linked.getByRole('cell', { name: 'Corp SSO', exact: true }).waitFor();
    await page.context().close();
  });

  it('asks for the two-factor code when the account has it on, then signs in', async () => {
    const zoe = new ApiClient(gateway.url);
    // Zoe has no password: she signs in through the provider once more and turns two-factor on over the
    // API with that browser's session.
    const page = await freshPage();
    idp.nextPerson = { sub: 'zoe', email: 'zoe@example.com', email_verified: true };
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    zoe.cookie = `gw_session=${(await page.context().cookies()).find((cookie) => cookie.name === 'gw_session')!.value}`;
    zoe.csrf = (await zoe.get('/api/me')).body.csrf_token;
    const { generate } = await import('otplib');
    const setup = await zoe.post('/api/me/2fa/setup');
    const enabled = await zoe.post('/api/me/2fa/enable', { code: await generate({ secret: setup.body.secret }) });
    expect(enabled.status).toBe(200);
    await page.context().close();

    const again = await freshPage();
    await again.goto(`${base}/login?next=%2Fusage`);
    await again.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await again.getByLabel(/^Code/).fill(enabled.body.recovery_codes[0]);
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    await again.context().close();
  });

  it('shows why a refused sign-in was refused', async () => {
    idp.nextPerson = { sub: 'unverified', email: 'idp-admin@example.com', email_verified: false };
    const page = await freshPage();
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.getByRole('alert').filter({ hasText: 'did not confirm your e-mail address' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'gw_session')).toBe(false);
    await page.context().close();
  });
});
