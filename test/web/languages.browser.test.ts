// Issue 31, item 5 (languages), in Debian's Chromium against a real gateway: the switcher turns the
// dashboard to Simplified Chinese and the choice is remembered; the translated pages show no English
// sentence and no untranslated key (a key missing from the catalogues shows as ⟦key⟧), and dates and money
// are written the Chinese way. Every page, in either language, is checked for ⟦key⟧ markers.
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { launchBrowser, SCREENSHOT_DIR, signInThroughForm, VIEWPORTS } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-languages';
const ADMIN = { email: 'lang-root@example.com', password: 'languages root password 1' };
let upstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;

/** The pages whose every string is in the catalogues (the others are listed in docs/dashboard.md). */
const TRANSLATED = [
  { path: '/', heading: '概览' },
  { path: '/keys', heading: '密钥' },
  { path: '/logs', heading: '日志' },
  { path: '/playground', heading: '操练场' },
  { path: '/orgs', heading: '组织' },
];
const EVERY_PAGE = ['/', '/keys', '/playground', '/logs', '/usage', '/wallet', '/orgs', '/settings', '/admin/users', '/admin/organisations', '/admin/channels', '/admin/models', '/admin/groups', '/admin/settings'];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin', balance: 1234.5 }],
  });
  // One call, so the logs and the overview's chart have something to show.
  const admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(200);
  const key = await admin.post('/api/keys', { name: 'lang-key' });
  await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key.body.key as string, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

/** Visible text that names a catalogue key instead of its text (i18n/i18n.ts shows a missing key as ⟦key⟧). */
const missingKeys = (page: Page) => page.evaluate(() => (document.body.innerText.match(/⟦[^⟧]*⟧/g) ?? []));

/**
 * Visible text, outside code and the user's own data, with two English words in a row: a string left
 * untranslated. (Model ids, e-mail addresses, key names and dollar amounts have no such pair; what an
 * operator wrote, such as a group's description, is marked data-user-content.)
 */
const englishSentences = (page: Page) => page.evaluate(() => {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    const text = node.textContent?.trim() ?? '';
    if (!element || !text || element.closest('code, pre, [data-testid="brand"], [lang="en"], [data-user-content], .visually-hidden')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
    if (/\b[A-Za-z]{2,}\s+[A-Za-z]{2,}\b/.test(text)) found.push(text.slice(0, 60));
  }
  return found;
});

async function signedIn(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signInThroughForm(page, gateway.url, ADMIN);
  await page.close();
  return context;
}

describe('languages', { timeout: 300_000 }, () => {
  it('every page in English names no missing key', async () => {
    const context = await signedIn(VIEWPORTS.desktop);
    const page = await context.newPage();
    for (const path of [...EVERY_PAGE, '/pricing']) {
      await page.goto(`${gateway.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect({ path, missing: await missingKeys(page) }).toEqual({ path, missing: [] });
    }
    await context.close();
  });

  it('switches to Simplified Chinese, remembers it, and the translated pages have no English left, at desktop and phone width', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await signedIn(viewport);
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${gateway.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await page.getByRole('button', { name: 'Language' }).click();
      await page.getByRole('menuitem', { name: '简体中文' }).click();
      await page.getByRole('heading', { level: 1, name: '概览' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      // Remembered: a new page load starts in Chinese.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: '概览' }).waitFor();
      for (const { path, heading } of TRANSLATED) {
        await page.goto(`${gateway.url}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        expect({ path, missing: await missingKeys(page), english: await englishSentences(page) }).toEqual({ path, missing: [], english: [] });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `zh-${path === '/' ? 'overview' : path.slice(1)}-${label}-light.png`), fullPage: true });
      }
      // Dates and money the Chinese way: the balance in US$, the log's time with 年/月/日.
      await page.goto(`${gateway.url}/`);
      await page.getByText(/^US\$1,234\.\d+$/).first().waitFor();
      await page.goto(`${gateway.url}/logs`);
      const row = page.getByRole('table', { name: '调用' }).getByRole('row').filter({ hasText: 'lang-key' }).first();
      await row.waitFor();
      expect(await row.textContent()).toMatch(/\d{4}年\d{1,2}月\d{1,2}日/);
      expect(await row.textContent()).toContain('US$');
      // Every other page still loads without a missing key (once is enough: the catalogue is the same).
      for (const path of label === 'desktop' ? EVERY_PAGE : []) {
        await page.goto(`${gateway.url}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        expect({ path, missing: await missingKeys(page) }).toEqual({ path, missing: [] });
      }
      // And back to English.
      await page.getByRole('button', { name: '语言' }).click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.goto(`${gateway.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await context.close();
    }
  });

  it('the signed-out pages and the pricing page follow the browser’s language, and switch too', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${gateway.url}/login`);
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    expect({ missing: await missingKeys(page), english: await englishSentences(page) }).toEqual({ missing: [], english: [] });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'zh-login-phone-light.png'), fullPage: true });
    for (const [path, heading] of [['/signup', '创建你的账号'], ['/forgot-password', '重置密码'], ['/pricing', '价格'], ['/no/such/page', '页面不存在']] as const) {
      await page.goto(`${gateway.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect({ path, missing: await missingKeys(page), english: await englishSentences(page) }).toEqual({ path, missing: [], english: [] });
    }
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'zh-not-found-phone-light.png'), fullPage: true });
    await page.goto(`${gateway.url}/pricing`);
    await page.getByRole('heading', { level: 1, name: '价格' }).waitFor();
    await page.getByText('US$0.15 / 百万输入 token').waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'zh-pricing-phone-light.png'), fullPage: true });
    await page.getByRole('button', { name: '语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    await context.close();
  });
});
