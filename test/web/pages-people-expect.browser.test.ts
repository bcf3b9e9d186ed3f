// Issue 31, item 4, in Debian's Chromium against a real gateway and the OpenAI simulator: the public
// pricing page (off by default: the app's Not Found page with a 404; an administrator turns it on; then
// every model of each group users may pick, with the group's ratio applied, at desktop width as a table and
// at phone width as cards, never a channel name or a group reserved by an administrator), and the
// playground (only chat models offered; answers rendered as Markdown, with HTML in an answer never run),
// and a call's detail in the logs read like a receipt.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import OpenAI from 'openai';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { contrastProblems, launchBrowser, SCREENSHOT_DIR, signInThroughForm, VIEWPORTS } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-pricing';
const ADMIN = { email: 'pricing-root@example.com', password: 'pricing root password 1' };
const HIDDEN_CHANNEL = 'secret-upstream-channel';
let upstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;
let admin: ApiClient;
let adminPage: Page;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    groups: [{ name: 'team', ratio: 0.5, description: 'Half price for the team' }, { name: 'insiders', ratio: 2 }],
    channels: [
      { name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini', 'text-embedding-3-small', 'dall-e-3', 'tts-1', 'free-chat'], groups: ['default', 'team'] },
      { name: HIDDEN_CHANNEL, type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'], groups: ['insiders'] },
    ],
    models: [
      { id: 'gpt-4o-mini', owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 },
      { id: 'gpt-4o', owned_by: 'openai', input_per_mtok: 2.5, output_per_mtok: 10 },
      { id: 'text-embedding-3-small', owned_by: 'openai', input_per_mtok: 0.02 },
      { id: 'dall-e-3', owned_by: 'openai', per_image: { '1024x1024': 0.04 } },
      { id: 'tts-1', owned_by: 'openai', per_mchars: 15 },
      { id: 'free-chat', owned_by: 'openai', free: true },
    ],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin', balance: 10 }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  browser = await launchBrowser();
  adminPage = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  adminPage.setDefaultTimeout(30_000);
  await signInThroughForm(adminPage, gateway.url, ADMIN);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

async function anonymousPage(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await (await browser.newContext({ viewport, colorScheme })).newPage();
  page.setDefaultTimeout(30_000);
  return page;
}

const pricingToggle = () => adminPage.getByRole('switch', { name: 'Show the pricing page to everyone' });

describe('the public pricing page', { timeout: 180_000 }, () => {
  it('is off by default: the app’s Not Found page with a 404, and the API’s 404', async () => {
    const page = await anonymousPage(VIEWPORTS.desktop);
    expect((await page.goto(`${gateway.url}/pricing`))!.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    const api = await fetch(`${gateway.url}/api/pricing`);
    expect(api.status).toBe(404);
    // The same code as any unknown address, so an off pricing page cannot be told from none
    // (test/security/pricing-catalog-attack.test.ts compares the two answers whole).
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
    await page.context().close();
  });

  it('an administrator turns it on in the settings (read back through the API)', async () => {
    expect((await admin.put('/api/admin/settings', { self_service_groups: ['default', 'team'] })).status).toBe(200);
    await adminPage.goto(`${gateway.url}/admin/settings`);
    await expect.poll(() => pricingToggle().isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await pricingToggle().isChecked()).toBe(false);
    await pricingToggle().click({ force: true });
    await adminPage.getByText('The pricing page is public.').waitFor();
    expect((await admin.get('/api/admin/settings')).body.pricing_page).toEqual({ enabled: true });
    const audit = await admin.get('/api/admin/audit?limit=20');
    expect(JSON.stringify(audit.body)).toContain('settings.pricing_page');
  });

  it('shows each group users may pick with its ratio applied, and nothing private', async () => {
    const page = await anonymousPage(VIEWPORTS.desktop);
    expect((await page.goto(`${gateway.url}/pricing`))!.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    const table = page.getByRole('table', { name: 'Model prices' });
    const row = (model: string) => table.getByRole('row').filter({ hasText: model }).first();
    await row('gpt-4o-mini').getByText('$0.15 / 1M input tokens').waitFor();
    expect(await row('gpt-4o-mini').textContent()).toContain('$0.60 / 1M output tokens');
    expect(await row('text-embedding-3-small').textContent()).toContain('Embedding');
    expect(await row('dall-e-3').textContent()).toContain('$0.04 / image (1024x1024)');
    expect(await row('tts-1').textContent()).toContain('Audio');
    expect(await row('free-chat').textContent()).toContain('Free');
    // The default group sees every model (gateway rule), so gpt-4o is listed, at list price.
    expect(await row('gpt-4o').textContent()).toContain('$2.50 / 1M input tokens');
    expect(await contrastProblems(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'pricing-desktop-light.png'), fullPage: true });

    await page.getByText('team', { exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Group “team”' }).waitFor();
    await page.getByText('List prices × 0.5 (this group’s ratio).').waitFor();
    await row('gpt-4o-mini').getByText('$0.075 / 1M input tokens').waitFor();
    expect(await row('gpt-4o-mini').textContent()).toContain('$0.30 / 1M output tokens');
    expect(await table.getByRole('row').filter({ hasText: /^gpt-4o\b(?!-)/ }).count()).toBe(0);
    // The group reserved by an administrator and the channels never show, on the page or in its data.
    expect(await page.getByRole('radio', { name: 'insiders' }).count()).toBe(0);
    const html = await page.content();
    const data = await (await fetch(`${gateway.url}/api/pricing`)).text();
    for (const secret of [HIDDEN_CHANNEL, 'insiders', upstream.url, UPSTREAM_KEY, '"main"']) {
      expect(html, secret).not.toContain(secret);
      expect(data, secret).not.toContain(secret);
    }
    await page.context().close();
  });

  it('becomes cards on a phone: every column present, no sideways scroll', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await anonymousPage(VIEWPORTS.phone, colorScheme);
      await page.goto(`${gateway.url}/pricing`);
      await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
      const cards = page.locator('[data-layout="cards"]');
      await cards.waitFor();
      const card = cards.locator('tr').filter({ hasText: 'gpt-4o-mini' }).first();
      await card.getByText('$0.15 / 1M input tokens').waitFor();
      // Each cell is labelled with its column's name.
      expect(await card.locator('td').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-label')))).toEqual(['Model', 'Kind', 'Prices']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      expect(await contrastProblems(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `pricing-phone-${colorScheme}.png`), fullPage: true });
      await page.context().close();
    }
  });

  it('turned off again, it is Not Found again', async () => {
    await adminPage.goto(`${gateway.url}/admin/settings`);
    await expect.poll(() => pricingToggle().isChecked(), { timeout: 15_000 }).toBe(true);
    await pricingToggle().click({ force: true });
    await adminPage.getByText('The pricing page is off.').waitFor();
    expect((await admin.get('/api/admin/settings')).body.pricing_page).toEqual({ enabled: false });
    const page = await anonymousPage(VIEWPORTS.desktop);
    expect((await page.goto(`${gateway.url}/pricing`))!.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.context().close();
  });

  it('the admin API refuses a malformed setting with a 400 naming the field, and changes nothing', async () => {
    const refused = await admin.put('/api/admin/settings', { pricing_page: { enabled: 'yes' } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('pricing_page');
    expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: true, extra: 1 } })).status).toBe(400);
    expect((await admin.get('/api/admin/settings')).body.pricing_page).toEqual({ enabled: false });
    const anonymous = new ApiClient(gateway.url);
    expect((await anonymous.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(401);
  });
});

describe('the playground', { timeout: 180_000 }, () => {
  it('offers only chat models (no embedding, image or audio model)', async () => {
    const models = (await admin.get('/api/playground/models')).body.data as Array<{ id: string }>;
    expect(models.map((model) => model.id).sort()).toEqual(['free-chat', 'gpt-4o', 'gpt-4o-mini']);
    await adminPage.goto(`${gateway.url}/playground`);
    await adminPage.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await expect.poll(() => adminPage.getByLabel('Model', { exact: true }).first().inputValue(), { timeout: 15_000 }).not.toBe('');
    await adminPage.getByLabel('Model', { exact: true }).first().click();
    const options = await adminPage.getByRole('option').allTextContents();
    expect(options.sort()).toEqual(['free-chat', 'gpt-4o', 'gpt-4o-mini']);
    await adminPage.keyboard.press('Escape');
  });

  it('renders an answer’s Markdown, and HTML in the answer is never run', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await (await browser.newContext({ viewport, storageState: await adminPage.context().storageState() })).newPage();
      page.setDefaultTimeout(30_000);
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${gateway.url}/playground`);
      await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
      await expect.poll(() => page.getByLabel('Model', { exact: true }).first().inputValue(), { timeout: 15_000 }).not.toBe('');
      // The simulator answers with the user's text, so the answer carries this Markdown and HTML.
      await page.getByLabel('Message').fill('**bold words** and `some code` <img src="x" onerror="window.__pwned=1;alert(1)"> <script>window.__pwned=2</script> [a link](javascript:window.__pwned=3)');
      await page.getByRole('button', { name: 'Send' }).click();
      const answer = page.getByTestId('assistant-answer').last();
      await answer.locator('strong', { hasText: 'bold words' }).waitFor();
      await answer.locator('code', { hasText: 'some code' }).waitFor();
      expect(await answer.locator('img, script').count()).toBe(0);
      const link = answer.getByRole('link', { name: 'a link' });
      if (await link.count()) {
        expect(await link.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
        await link.click();
      }
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `playground-markdown-${label}-light.png`), fullPage: true });
      await page.context().close();
    }
  });
});

/** Dollars as the gateway counts them: at least cents, more decimals only when the amount has them. */
const exactUsd = (micros: number) => `$${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0').replace(/0{1,4}$/, '')}`;

describe('the log detail', { timeout: 180_000 }, () => {
  it('reads like a receipt: the call, its tokens, how it was charged and the total, at desktop and phone width', async () => {
    const created = await admin.post('/api/keys', { name: 'receipt-key' });
    expect(created.status).toBe(201);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: created.body.key as string, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'one two three four five' }] });
    let row: { cost_micros: number; input_tokens: number; output_tokens: number } | undefined;
    await expect.poll(async () => {
      row = await gateway.database.db.selectFrom('usage_logs').select(['cost_micros', 'input_tokens', 'output_tokens']).where('key_name', '=', 'receipt-key').executeTakeFirst();
      return row !== undefined;
    }, { timeout: 10_000 }).toBe(true);
    expect(row!.cost_micros).toBeGreaterThan(0);
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await (await browser.newContext({ viewport, storageState: await adminPage.context().storageState() })).newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${gateway.url}/logs`);
      await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'receipt-key' }).getByRole('button', { name: /^Details of the call/ }).click();
      await page.getByRole('heading', { name: 'Receipt' }).waitFor();
      const summary = page.getByRole('table', { name: 'Call details' });
      expect(await summary.getByRole('row', { name: /^Model/ }).textContent()).toContain('gpt-4o-mini');
      expect(await summary.getByRole('row', { name: /^Key/ }).textContent()).toContain('receipt-key');
      expect(await summary.getByRole('row', { name: /^Outcome/ }).textContent()).toContain('Succeeded');
      expect(await summary.getByRole('row', { name: /^Tokens in/ }).textContent()).toContain(String(row!.input_tokens));
      expect(await summary.getByRole('row', { name: /^Tokens out/ }).textContent()).toContain(String(row!.output_tokens));
      await page.getByRole('table', { name: 'Charge calculation' }).waitFor();
      expect(await page.getByTestId('receipt-total').textContent()).toBe(`Charged${exactUsd(row!.cost_micros)}`);
      // Every recorded field is still there, folded.
      await page.getByRole('button', { name: 'Every recorded field' }).click();
      await page.getByRole('table', { name: 'Every recorded field' }).getByText('request id').waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `log-receipt-${label}-light.png`) });
      await page.context().close();
    }
  });
});
