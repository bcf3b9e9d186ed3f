// Unknown addresses in a browser show the app's own Not Found page (issue 31, item 4), with status 404,
// instead of the API's JSON; a known page with a trailing slash lands on the page. API clients keep their
// JSON 404 in their own format, and the API's paths never turn into the app, whatever the Accept header.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS } from './browser.ts';

const ADMIN = { email: 'slash-root@example.com', password: 'slash root password 1' };
/** Every page of web/src/app/router.tsx (and a few admin pages under /admin/*). */
const PAGES = ['/login', '/signup', '/verify-email', '/forgot-password', '/reset-password', '/pricing', '/keys', '/playground', '/logs', '/usage', '/wallet', '/settings', '/admin', '/admin/overview', '/admin/users', '/admin/logs'];
let gateway: TestGateway;
let browser: Browser;

beforeAll(async () => {
  gateway = await startTestGateway({ users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }] });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

describe('unknown addresses', () => {
  it("show the app's Not Found page with a 404, at desktop and phone width", async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await (await browser.newContext({ viewport })).newPage();
      for (const path of ['/no/such/page', '/pricing', '/admin-panel?x=1']) {
        const response = await page.goto(`${gateway.url}${path}`);
        expect({ path, status: response!.status() }).toEqual({ path, status: 404 });
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        expect(await page.getByText(`There is no page at ${path.split('?')[0]}.`, { exact: false }).count()).toBe(1);
        expect(await page.content()).not.toContain('"error"');
      }
      await page.screenshot({ path: join(SCREENSHOT_DIR, `not-found-${label}-light.png`) });
      await page.getByRole('link', { name: 'Go to the overview' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.context().close();
    }
  });

  it('a known page with a trailing slash lands on the page', async () => {
    const page = await (await browser.newContext()).newPage();
    const response = await page.goto(`${gateway.url}/settings/`);
    expect(response!.request().redirectedFrom()?.url()).toBe(`${gateway.url}/settings/`);
    // Signed out, the settings page sends the browser to sign in (and back to /settings afterwards).
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await fetch(`${gateway.url}/forgot-password/?a=b`, { headers: { accept: 'text/html' }, redirect: 'manual' })).headers.get('location')).toBe('/forgot-password?a=b');
    // Never an open redirect: //evil.example/ is an unknown page, not a way elsewhere.
    const sneaky = await fetch(`${gateway.url}//evil.example/`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(sneaky.status).toBe(404);
    expect(sneaky.headers.get('location')).toBeNull();
    await page.context().close();
  });

  it('every page, /pricing among them, is reached with a trailing slash too', async () => {
    for (const path of PAGES) {
      const answer = await fetch(`${gateway.url}${path}/`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect({ path, status: answer.status, location: answer.headers.get('location') }).toEqual({ path, status: 308, location: path });
    }
    // The pricing page on: /pricing/ shows it; off: the redirect lands on the Not Found page (404).
    const admin = new ApiClient(gateway.url);
    expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
    expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(200);
    const page = await (await browser.newContext({ viewport: VIEWPORTS.phone })).newPage();
    expect((await page.goto(`${gateway.url}/pricing/`))!.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/pricing');
    expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: false } })).status).toBe(200);
    expect((await page.goto(`${gateway.url}/pricing/`))!.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.context().close();
  });

  it('API clients keep the JSON 404, and API paths stay JSON even for a browser', async () => {
    for (const [path, accept] of [['/no/such/page', 'application/json'], ['/no/such/page', '*/*'], ['/v1/no-such-endpoint', 'text/html'], ['/api/no-such-thing', 'text/html,application/xhtml+xml'], ['/assets/missing.js', 'text/html']]) {
      const answer = await fetch(`${gateway.url}${path}`, { headers: { accept: accept! } });
      expect({ path, accept, status: answer.status, type: answer.headers.get('content-type') }).toEqual({ path, accept, status: 404, type: expect.stringContaining('application/json') });
    }
    const post = await fetch(`${gateway.url}/no/such/page`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(post.headers.get('content-type')).toContain('application/json');
  });
});
