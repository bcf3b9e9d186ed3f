// The admin model form edits every price (issue 30), in Debian's Chromium against a real gateway: an admin
// opens a model priced in the config file, gives it a one-hour cache-write price, a long-context tier and
// an image price, and saves; the stored model has them, a user's long prompt is charged at the tier at
// once, and the user's log detail shows how the charge was computed.
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { lastUsageRow } from '../helpers/usage-rows.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { launchBrowser, SCREENSHOT_DIR, signInThroughForm } from './browser.ts';

const ADMIN = { email: 'prices-root@example.com', password: 'prices root password 1' };
const USER = { email: 'pia@example.com', password: 'pia password 12345' };
const ADMIN_KEY = testKey('pricesadmin');
const USER_KEY = testKey('pricesuser');
const LONG = 'Please tell me something about the quiet harbour town, its old stone lighthouse, the fishing boats that leave before dawn and the gulls that follow them home again';
let upstream: AnthropicSimulator;
let gateway: TestGateway;
let browser: Browser;

beforeAll(async () => {
  upstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  gateway = await startTestGateway({
    channels: [{ name: 'anthropic', type: 'anthropic', base_url: upstream.url, api_key: 'sk-up-anthropic', models: ['sonnet-page'], model_mapping: { 'sonnet-page': 'claude-sonnet-4-6' } }],
    models: [{ id: 'sonnet-page', input_per_mtok: 3, cache_write_per_mtok: 3.75, output_per_mtok: 15, max_output_tokens: 500 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'pia', email: USER.email, password: USER.password, balance: 5 }],
    keys: [{ name: 'root', key: ADMIN_KEY, user: 'root' }, { name: 'pia', key: USER_KEY, user: 'pia' }],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

describe('admin model form', () => {
  it('sets a one-hour cache-write price, a long-context tier and an image price; the next call is charged by them and its log shows the calculation', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const signIn = async (who: { email: string; password: string }) => {
      await signInThroughForm(page, gateway.url, who);
    };
    await signIn(ADMIN);
    await page.goto(`${gateway.url}/admin/models`);
    await page.getByRole('row', { name: /sonnet-page/ }).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    // The config file's prices are shown.
    expect(await dialog.getByLabel('Input per 1M tokens (USD)', { exact: true }).inputValue()).toBe('3');
    expect(await dialog.getByLabel('Cache write (5 minutes) per 1M tokens (USD)', { exact: true }).inputValue()).toBe('3.75');
    await dialog.getByLabel('Cache write (1 hour) per 1M tokens (USD)', { exact: true }).fill('6');
    await dialog.getByRole('button', { name: 'Add a long-context tier' }).click();
    await dialog.getByLabel('Tier 1: prompts above (tokens)').fill('20');
    await dialog.getByLabel('Tier 1: Input per 1M tokens (USD)').fill('6');
    await dialog.getByLabel('Tier 1: Cache write (1 hour) per 1M tokens (USD)').fill('12');
    await dialog.getByLabel('Tier 1: Output per 1M tokens (USD)').fill('22.5');
    await dialog.getByRole('button', { name: 'Add an image price' }).click();
    await dialog.getByLabel('Image price 1: size/quality').fill('1024x1024/hd');
    await dialog.getByLabel('Image price 1 (USD)').fill('0.08');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-model-prices-desktop-light.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await page.getByText('1 long-context tier').waitFor();

    const models = await fetch(`${gateway.url}/api/admin/models`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }).then((response) => response.json()) as { data: Record<string, unknown>[] };
    expect(models.data.find((model) => model.id === 'sonnet-page')).toMatchObject({
      input_per_mtok: 3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6, output_per_mtok: 15, max_output_tokens: 500,
      tiers: [{ above_prompt_tokens: 20, input_per_mtok: 6, cache_write_1h_per_mtok: 12, output_per_mtok: 22.5 }],
      per_image: { '1024x1024/hd': 0.08 },
    });

    // A long prompt with two tokens written to the one-hour cache: the tier's prices, at once.
    upstream.script({ cacheWriteTokens: 2, cacheWrite1hTokens: 2 });
    await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 }).chat.completions.create({ model: 'sonnet-page', max_tokens: 100, messages: [{ role: 'user', content: LONG }] });
    const row = await lastUsageRow(gateway, 'pia');
    expect(row.cache_write_1h_tokens).toBe(2);
    expect(row.cost_micros).toBe(Math.round((row.input_tokens - 2) * 6 + 2 * 12 + row.output_tokens * 22.5));

    // The user opens the call in the logs and reads how it was charged.
    await context.clearCookies();
    await signIn(USER);
    await page.goto(`${gateway.url}/logs`);
    await page.getByRole('button', { name: /^Details of the call/ }).first().click();
    const calculation = page.getByRole('table', { name: 'Charge calculation' });
    await calculation.waitFor();
    await page.getByText(`Prompt of ${row.input_tokens} tokens, above 20: long-context prices on every token.`).waitFor();
    expect(await calculation.getByRole('row', { name: /Input tokens written to the cache \(1 hour\)/ }).textContent()).toContain('$12 per million tokens');
    expect(await calculation.getByRole('row', { name: /Total/ }).textContent()).toContain(`$${row.cost_micros / 1e6}`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'log-charge-calculation-desktop-light.png') });
    await context.close();
  }, 60_000);
});
