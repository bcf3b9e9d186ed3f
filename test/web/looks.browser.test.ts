// Issue 31, item 5 (looks), in Debian's Chromium against a real, empty gateway: the brand and its favicon,
// real icons where text glyphs were, empty states that say what to do next (no channel → add one, no key →
// create one, no call → a first call to copy), and tables that become cards on a phone with every column
// and whole badges. Screenshots at desktop and phone width.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { contrastProblems, launchBrowser, SCREENSHOT_DIR, signInThroughForm, VIEWPORTS } from './browser.ts';

const ADMIN = { email: 'looks-root@example.com', password: 'looks root password 1' };
let gateway: TestGateway;
let browser: Browser;
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

beforeAll(async () => {
  gateway = await startTestGateway({
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: 'a user with a rather long name', email: 'someone.with.a.long.address@example.com', password: 'user password 12345' },
    ],
  });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  await signInThroughForm(await context.newPage(), gateway.url, ADMIN);
  signedIn = await context.storageState();
  await context.close();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

async function open(path: string, viewport: { width: number; height: number } = VIEWPORTS.desktop, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport, colorScheme, storageState: signedIn });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`${gateway.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

/** Buttons and links whose only visible content is a symbol character (a text glyph used as an icon). */
const glyphIcons = (page: Page) => page.evaluate(() => Array.from(document.querySelectorAll('button, a, [role="button"]'))
  .filter((element) => (element as HTMLElement).offsetParent !== null)
  .map((element) => element.textContent?.trim() ?? '')
  .filter((text) => text.length > 0 && text.length <= 2 && /^[^\p{L}\p{N}]+$/u.test(text)));

// First, while the gateway is empty (opening the playground makes the user's playground key).
describe('empty states', { timeout: 180_000 }, () => {
  it('an empty gateway tells the administrator to add a channel, and the button leads there', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await open('/', viewport);
      const empty = page.getByTestId('empty-gateway');
      await empty.getByRole('heading', { name: 'Add a channel to start' }).waitFor();
      expect(await contrastProblems(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `empty-gateway-${label}-light.png`), fullPage: true });
      await empty.getByRole('link', { name: 'Add a channel' }).click();
      await page.waitForURL(/\/admin\/channels$/);
      await page.getByRole('button', { name: 'Create channel' }).waitFor();
      await page.context().close();
    }
  });

  it('no keys: says what a key is for, and the button opens the form', async () => {
    const page = await open('/keys');
    const empty = page.getByTestId('no-keys');
    await empty.getByRole('heading', { name: 'No keys yet' }).waitFor();
    expect(await page.getByRole('table', { name: 'Your keys' }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'empty-keys-desktop-light.png'), fullPage: true });
    await empty.getByRole('button', { name: 'Create your first key' }).click();
    await page.getByRole('dialog').getByLabel('Name').waitFor();
    await page.context().close();
  });

  it('no calls: how to make a first call, with a snippet that copies', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await open('/logs', viewport);
      const empty = page.getByTestId('no-logs');
      await empty.getByRole('heading', { name: 'No calls yet' }).waitFor();
      const snippet = (await page.getByTestId('first-call-snippet').textContent()) ?? '';
      expect(snippet).toContain(`curl ${gateway.url}/v1/chat/completions`);
      expect(snippet).toContain('Authorization: Bearer $GATEWAY_KEY');
      await empty.getByRole('button', { name: 'Copy the command' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
      await expect.poll(() => empty.getByRole('link', { name: 'Create a key' }).isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await contrastProblems(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `empty-logs-${label}-light.png`), fullPage: true });
      await page.context().close();
    }
  });
});

describe('brand and icons', { timeout: 180_000 }, () => {
  it('the page names an SVG favicon the dashboard serves', async () => {
    const html = await (await fetch(`${gateway.url}/login`, { headers: { accept: 'text/html' } })).text();
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toMatch(/^\/assets\/.+\.svg$/);
    const icon = await fetch(`${gateway.url}${href}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect(await icon.text()).toContain('<svg');
  });

  it('the header shows the brand (logo mark and name), and every page uses icons, never text glyphs', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await open('/', viewport);
      const brand = page.getByRole('banner').getByTestId('brand');
      expect(await brand.textContent()).toBe('Model gateway');
      expect(await brand.locator('svg').count()).toBe(1);
      // Every header control is inside the window, at 375 px too.
      const outside = await page.getByRole('banner').locator('button, a').evaluateAll((controls) => controls.filter((control) => control.getBoundingClientRect().right > window.innerWidth).map((control) => control.getAttribute('aria-label')));
      expect(outside).toEqual([]);
      for (const path of ['/', '/keys', '/playground', '/logs', '/usage', '/wallet', '/settings', '/admin/users', '/admin/channels', '/admin/settings']) {
        await page.goto(`${gateway.url}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        expect({ path, glyphs: await glyphIcons(page) }).toEqual({ path, glyphs: [] });
        expect(await page.locator('header svg.tabler-icon').count(), path).toBeGreaterThanOrEqual(3);
      }
      await page.goto(`${gateway.url}/settings`);
      await page.getByRole('button', { name: /^Move .* up$/ }).last().locator('svg.tabler-icon').waitFor();
      if (label === 'desktop') expect(await page.getByRole('navigation').locator('svg.tabler-icon').count()).toBeGreaterThanOrEqual(8);
      await page.context().close();
    }
  });
});

describe('tables on a phone', { timeout: 180_000 }, () => {
  it('become cards: every column labelled and shown, badges whole, no sideways scroll; a table at desktop width', async () => {
    const desktop = await open('/admin/users');
    await desktop.getByRole('table', { name: 'Users' }).waitFor();
    expect(await desktop.locator('[data-layout]').first().getAttribute('data-layout')).toBe('table');
    await desktop.context().close();
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open('/admin/users', VIEWPORTS.phone, colorScheme);
      const cards = page.locator('[data-layout="cards"]');
      const card = cards.locator('tbody tr').filter({ hasText: 'someone.with.a.long.address@example.com' });
      await card.waitFor();
      const cells = await card.locator('td').evaluateAll((tds) => tds.map((td) => ({ label: td.getAttribute('data-label'), visible: (td as HTMLElement).offsetHeight > 0 })));
      expect(cells.map((cell) => cell.label)).toEqual(['E-mail', 'Name', 'Role', 'Status', 'Two-factor', 'Balance', '']);
      expect(cells.every((cell) => cell.visible)).toBe(true);
      await card.getByText('Active', { exact: true }).waitFor();
      const cut = await page.locator('.mantine-Badge-label').evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent));
      expect(cut).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      expect(await contrastProblems(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `cards-users-phone-${colorScheme}.png`), fullPage: true });
      await page.context().close();
    }
  });
});
