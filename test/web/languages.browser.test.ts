// Issue 31, item 5 (languages), in Debian's Chromium against a real gateway: the switcher turns the
// dashboard to Simplified Chinese and the choice is remembered; EVERY page, the admin pages among them, and
// the dialogs, forms' messages and toasts show no English word left (a walk of every visible text node and
// label against a list of proper nouns), and no untranslated key (a key missing from the catalogues shows as
// ⟦key⟧); an error the server writes in English is shown by its code in Chinese; dates and money are written
// the Chinese way. Every page, in either language, is checked for ⟦key⟧ markers.
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

/** The signed-in user's pages and their Chinese headings. */
const USER_PAGES = [
  { path: '/', heading: '概览' },
  { path: '/keys', heading: '密钥' },
  { path: '/logs', heading: '日志' },
  { path: '/playground', heading: '操练场' },
  { path: '/usage', heading: '用量' },
  { path: '/wallet', heading: '钱包' },
  { path: '/settings', heading: '设置' },
  { path: '/orgs', heading: '组织' },
];
/** Every admin tab (the page's heading is 管理) with a heading or table of its own to wait for. */
const ADMIN_PAGES = [
  { path: '/admin/overview', ready: { role: 'heading', name: '平台概览' } },
  { path: '/admin/users', ready: { role: 'table', name: '用户' } },
  { path: '/admin/keys', ready: { role: 'table', name: '全部密钥' } },
  { path: '/admin/organisations', ready: { role: 'heading', name: '还没有组织' } },
  { path: '/admin/channels', ready: { role: 'table', name: '渠道' } },
  { path: '/admin/mcp', ready: { role: 'button', name: '添加 MCP 服务器' } },
  { path: '/admin/groups', ready: { role: 'table', name: '分组' } },
  { path: '/admin/models', ready: { role: 'table', name: '模型与价格' } },
  { path: '/admin/logs', ready: { role: 'table', name: '全部调用' } },
  { path: '/admin/payments', ready: { role: 'table', name: '兑换码' } },
  { path: '/admin/audit', ready: { role: 'table', name: '审计日志' } },
  { path: '/admin/settings', ready: { role: 'heading', name: '注册' } },
  { path: '/admin/sign-in', ready: { role: 'heading', name: '身份提供方' } },
] as const;
const EVERY_PAGE = [...USER_PAGES.map((page) => page.path), ...ADMIN_PAGES.map((page) => page.path)];

/**
 * Latin words a Chinese page may show: names of products, protocols and formats, the literals of examples
 * (http, auto, false), the key the playground runs under, and the names this test's gateway was given
 * (its users, channel and group are data, as a user's own names are).
 */
const ALLOWED = [
  'API', 'SDK', 'URL', 'URI', 'CSV', 'JSON', 'HTTP', 'HTTPS', 'SSE', 'SMTP', 'MCP', 'CIDR', 'IP', 'ID', 'RPM', 'TPM', 'QR', 'US',
  'OpenAI', 'Anthropic', 'Gemini', 'Claude', 'Codex', 'Cursor', 'GitHub', 'Enterprise', 'Server', 'Google', 'Microsoft', 'Okta', 'Keycloak',
  'OpenID', 'Connect', 'Stripe', 'Responses', 'WebSocket', 'POST', 'vLLM', 'Streamable', 'Token', 'token', 'curl', 'Ctrl', 'Enter', 'playground',
  'http', 'https', 'smtp', 'smtps', 'auto', 'tools', 'false', 'GW', 'ERR', 'UPSTREAM', 'TIMEOUT',
  'root', 'main', 'default', 'vip', 'system', 'openai', 'AM', 'PM',
];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    groups: [{ name: 'vip', ratio: 0.5, description: 'Half price' }],
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin', balance: 1234.5 }],
  });
  // One call, so the logs, the overview's chart and the admin pages have something to show; a code too.
  const admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(200);
  expect((await admin.post('/api/admin/redemption-codes', { count: 2, amount_usd: 5, note: 'team' })).status).toBe(201);
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
 * Every visible text node and every visible label (aria-label, placeholder, title, alt) with a Latin word
 * that is not in ALLOWED: a string left in English. Ids, e-mail addresses, key names with a dash, amounts and
 * code are not words here; what the server or a user wrote is marked (lang="en", data-user-content).
 */
const englishLeft = (page: Page, scope = 'body') =>
  page.evaluate(({ allowed, scope }) => {
    const allow = new Set(allowed);
    const root = document.querySelector(scope) ?? document.body;
    const found: string[] = [];
    const skipped = (element: Element) => element.closest('code, pre, script, style, [data-testid="brand"], [lang="en"], [data-user-content]') !== null;
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    const check = (text: string, where: string) => {
      const words = text.replace(/Model gateway/g, ' ').match(/(?<![\w.@/:+…-])[A-Za-z]{2,}(?![\w.@/:+…-])/g) ?? [];
      const english = words.filter((word) => !allow.has(word));
      if (english.length > 0) found.push(`${where}: ${text.trim().slice(0, 80)} [${english.join(' ')}]`);
    };
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || skipped(element) || !visible(element)) continue;
      check(node.textContent, element.tagName.toLowerCase());
    }
    for (const element of Array.from(root.querySelectorAll('[aria-label], [placeholder], [title], img[alt]'))) {
      if (skipped(element) || !visible(element)) continue;
      for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(attribute);
        if (value) check(value, `@${attribute}`);
      }
    }
    return found;
  }, { allowed: ALLOWED, scope });

async function signedIn(viewport: { width: number; height: number }, language: 'en' | 'zh-CN' = 'en'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signInThroughForm(page, gateway.url, ADMIN);
  if (language === 'zh-CN') await page.evaluate(() => localStorage.setItem('gateway.language', 'zh-CN'));
  await page.close();
  return context;
}

/** Opens an admin page in Chinese, waits for its own content and the data to settle. */
async function openAdminPage(page: Page, { path, ready }: (typeof ADMIN_PAGES)[number]): Promise<void> {
  await page.goto(`${gateway.url}${path}`);
  await page.getByRole('heading', { level: 1, name: '管理' }).waitFor();
  await page.getByRole(ready.role, { name: ready.name, exact: true }).first().waitFor();
  await page.waitForLoadState('networkidle');
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

  it('switches to Simplified Chinese, remembers it, and the user’s pages have no English left, at desktop and phone width', async () => {
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
      for (const { path, heading } of USER_PAGES) {
        await page.goto(`${gateway.url}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        expect({ path, missing: await missingKeys(page), english: await englishLeft(page) }).toEqual({ path, missing: [], english: [] });
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
      // And back to English.
      await page.getByRole('button', { name: '语言' }).click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.goto(`${gateway.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await context.close();
    }
  });

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`every admin page has no English left, at ${label} width`, async () => {
      const context = await signedIn(viewport, 'zh-CN');
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      for (const adminPage of ADMIN_PAGES) {
        await openAdminPage(page, adminPage);
        expect({ path: adminPage.path, missing: await missingKeys(page), english: await englishLeft(page) }).toEqual({ path: adminPage.path, missing: [], english: [] });
        if (['/admin/overview', '/admin/channels', '/admin/models'].includes(adminPage.path)) {
          await page.screenshot({ path: join(SCREENSHOT_DIR, `zh-${adminPage.path.slice(1).replace('/', '-')}-${label}-light.png`), fullPage: true });
        }
      }
      // Money in the admin lists the Chinese way, exactly: the model's price and a code's worth.
      await openAdminPage(page, ADMIN_PAGES.find((item) => item.path === '/admin/models')!);
      expect(await page.getByRole('table', { name: '模型与价格' }).textContent()).toContain('US$0.15');
      await context.close();
    });
  }

  it('the dialogs, the forms’ own messages and the server’s errors are in Chinese too', async () => {
    const context = await signedIn(VIEWPORTS.desktop, 'zh-CN');
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const dialogHasNoEnglish = async (what: string) => {
      const dialog = page.getByRole('dialog').last();
      await dialog.waitFor();
      await page.waitForLoadState('networkidle');
      expect({ what, missing: await missingKeys(page), english: await englishLeft(page, '[role="dialog"]') }).toEqual({ what, missing: [], english: [] });
    };
    const closeDialog = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').last().waitFor({ state: 'hidden' });
    };
    // The user's own key form.
    await page.goto(`${gateway.url}/keys`);
    await page.getByRole('button', { name: '创建密钥' }).first().click();
    await dialogHasNoEnglish('key form');
    await closeDialog();
    // Each admin form, with a number the form refuses (its message in Chinese).
    for (const [path, button, what] of [
      ['/admin/channels', '创建渠道', 'channel form'],
      ['/admin/models', '添加模型', 'model form'],
      ['/admin/users', '创建用户', 'user form'],
      ['/admin/keys', '为用户创建密钥', 'admin key form'],
      ['/admin/mcp', '添加 MCP 服务器', 'MCP server form'],
    ] as const) {
      await openAdminPage(page, ADMIN_PAGES.find((item) => item.path === path)!);
      await page.getByRole('button', { name: button }).first().click();
      await dialogHasNoEnglish(what);
      if (path === '/admin/channels') await page.screenshot({ path: join(SCREENSHOT_DIR, 'zh-admin-channel-form-desktop-light.png'), fullPage: true });
      await closeDialog();
    }
    await openAdminPage(page, ADMIN_PAGES.find((item) => item.path === '/admin/groups')!);
    await page.getByRole('button', { name: '添加分组' }).click();
    const group = page.getByRole('dialog', { name: '添加分组' });
    await group.getByLabel('名称').fill('free');
    await group.getByLabel('价格倍率').fill('0');
    await group.getByRole('button', { name: '保存分组' }).click();
    await group.getByText('必须大于 0。').waitFor();
    await dialogHasNoEnglish('group form with a refused ratio');
    await closeDialog();
    // A server error (409 email_in_use) shown by its code, in Chinese, not in the server's English.
    await openAdminPage(page, ADMIN_PAGES.find((item) => item.path === '/admin/users')!);
    await page.getByRole('button', { name: '创建用户' }).click();
    const user = page.getByRole('dialog', { name: '创建用户' });
    await user.getByLabel('邮箱').fill(ADMIN.email);
    await user.getByRole('button', { name: '创建用户' }).click();
    await page.getByText('另一个账号已在使用此邮箱地址。').waitFor();
    expect(await englishLeft(page, '.mantine-Notifications-root')).toEqual([]);
    await context.close();
  });

  it('the signed-out pages and the pricing page follow the browser’s language, and switch too', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${gateway.url}/login`);
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    expect({ missing: await missingKeys(page), english: await englishLeft(page) }).toEqual({ missing: [], english: [] });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'zh-login-phone-light.png'), fullPage: true });
    for (const [path, heading] of [['/signup', '创建你的账号'], ['/forgot-password', '重置密码'], ['/pricing', '价格'], ['/no/such/page', '页面不存在']] as const) {
      await page.goto(`${gateway.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect({ path, missing: await missingKeys(page), english: await englishLeft(page) }).toEqual({ path, missing: [], english: [] });
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
