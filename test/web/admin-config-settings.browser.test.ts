// Every setting the config file holds can be set in the admin pages (issue 31, item 2), in Debian's
// Chromium at desktop and phone width: a model's fallbacks, hedging and limits, a channel's timeouts, a
// user's rate limits, the groups users may choose, and any user's keys. A number out of bounds is refused in the form, and the
// API read back shows nothing changed. Screenshots in test-results/screenshots/admin-config-*.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-config-ui';
const ADMIN = { email: 'config-ui-root@example.com', password: 'config ui root password' };
let upstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;
let page: Page;
let admin: ApiClient;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    groups: [{ name: 'vip', ratio: 0.5 }],
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini', 'gpt-4o'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }, { id: 'gpt-4o', input_per_mtok: 2, output_per_mtok: 4 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'lim', email: 'lim@example.com', balance: 1 }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  page.setDefaultTimeout(10_000);
  await signInThroughForm(page, gateway.url, ADMIN);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
const modelNow = async (id: string) => (await admin.get<{ data: Record<string, unknown>[] }>('/api/admin/models')).body.data.find((row) => row.id === id)!;

async function screenshotDialog(dialog: Locator, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop-light.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.phone);
  await dialog.getByText('Fallbacks, hedging and limits').or(dialog.getByText('Continuation and timeouts')).first().scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone-light.png`) });
  await page.setViewportSize(VIEWPORTS.desktop);
}

describe('config settings in the admin pages', { timeout: 60_000 }, () => {
  it("sets a model's fallbacks, hedging and context window, and refuses a hedge past ten minutes", async () => {
    await page.goto(`${gateway.url}/admin/models`);
    await page.getByRole('row', { name: /gpt-4o-mini/ }).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Fallback models', { exact: true }).click();
    await page.getByRole('option', { name: 'gpt-4o', exact: true }).click();
    await dialog.getByLabel('Hedge after (ms)').fill('700000');
    await dialog.getByLabel('Context window (tokens)').fill('128000');
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await dialog.getByText('Must be at most 600,000.').waitFor();
    expect(await modelNow('gpt-4o-mini')).not.toHaveProperty('hedge_after_ms');
    await screenshotDialog(dialog, 'admin-config-model-refused');

    await dialog.getByLabel('Hedge after (ms)').fill('1500');
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await poll(async () => modelNow('gpt-4o-mini')).toMatchObject({ fallbacks: ['gpt-4o'], hedge_after_ms: 1500, context_window: 128000, input_per_mtok: 1 });
  });

  it("sets a channel's timeouts and refuses one longer than an hour", async () => {
    await page.goto(`${gateway.url}/admin/channels`);
    await page.getByRole('button', { name: 'Actions for main' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit main' });
    await dialog.getByLabel('Connect timeout (ms)').fill('3600001');
    await dialog.getByRole('button', { name: 'Save channel' }).click();
    await dialog.getByText('Must be at most 3,600,000.').waitFor();
    const channel = async () => (await admin.get<{ data: { name: string; timeouts?: unknown; supports_prefill?: boolean }[] }>('/api/admin/channels')).body.data.find((row) => row.name === 'main')!;
    expect((await channel()).timeouts).toBeUndefined();
    await screenshotDialog(dialog, 'admin-config-channel-refused');
    await dialog.getByLabel('Connect timeout (ms)').fill('2000');
    await dialog.getByLabel('Continues an assistant prefill', { exact: true }).click();
    await page.getByRole('option', { name: 'Yes' }).click();
    await dialog.getByRole('button', { name: 'Save channel' }).click();
    await poll(async () => channel()).toMatchObject({ timeouts: { connect_ms: 2000 }, supports_prefill: true });
  });

  it("turns a channel's upstream Responses WebSocket off, and back to the type's default", async () => {
    const channel = async () => (await admin.get<{ data: { name: string; responses_websocket?: boolean }[] }>('/api/admin/channels')).body.data.find((row) => row.name === 'main')!;
    const edit = async () => {
      await page.goto(`${gateway.url}/admin/channels`);
      await page.getByRole('button', { name: 'Actions for main' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      return page.getByRole('dialog', { name: 'Edit main' });
    };
    let dialog = await edit();
    const field = dialog.getByRole('radiogroup', { name: 'Responses WebSocket to the upstream' });
    expect(await field.getByRole('radio', { name: 'Automatic' }).isChecked()).toBe(true);
    await field.getByRole('radio', { name: 'Off' }).check();
    await dialog.getByRole('button', { name: 'Save channel' }).click();
    await poll(async () => (await channel()).responses_websocket).toBe(false);
    dialog = await edit();
    expect(await dialog.getByRole('radiogroup', { name: 'Responses WebSocket to the upstream' }).getByRole('radio', { name: 'Off' }).isChecked()).toBe(true);
    await dialog.getByRole('radiogroup', { name: 'Responses WebSocket to the upstream' }).getByRole('radio', { name: 'Automatic' }).check();
    await dialog.getByRole('button', { name: 'Save channel' }).click();
    await poll(async () => 'responses_websocket' in (await channel())).toBe(false);
  });

  it("sets a user's rate limits and refuses a fraction", async () => {
    await page.goto(`${gateway.url}/admin/users`);
    await page.getByRole('button', { name: 'Actions for lim@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Rate limits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rate limits of lim@example.com' });
    await dialog.getByLabel('Requests per minute').fill('1.5');
    await dialog.getByRole('button', { name: 'Save limits' }).click();
    await dialog.getByText('Enter a whole number.').waitFor();
    const user = async () => (await admin.get<{ data: { email: string; rpm_limit: number | null; tpm_limit: number | null }[] }>('/api/admin/users?q=lim%40example.com')).body.data[0]!;
    expect(await user()).toMatchObject({ rpm_limit: null });
    await dialog.getByLabel('Requests per minute').fill('60');
    await dialog.getByLabel('Tokens per minute').fill('100000');
    await dialog.getByRole('button', { name: 'Save limits' }).click();
    await poll(async () => user()).toMatchObject({ rpm_limit: 60, tpm_limit: 100000 });
  });

  it('chooses the groups users may pick for their own keys', async () => {
    await page.goto(`${gateway.url}/admin/settings`);
    // default is there already (users may always pick it); vip is added.
    await page.getByLabel('Self-service groups', { exact: true }).first().click();
    await page.getByRole('option', { name: 'vip' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save groups' }).click();
    await poll(async () => (await admin.get('/api/admin/settings')).body.self_service_groups).toEqual(['default', 'vip']);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-config-settings-desktop-light.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-config-settings-phone-light.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it("creates a key for a user with limits, shows its secret once, edits it, refuses a bad limit and deletes it after confirming", async () => {
    await page.goto(`${gateway.url}/admin/keys`);
    await page.getByRole('button', { name: 'Create key for a user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create key for a user' });
    await dialog.getByLabel('User', { exact: true }).click();
    await page.getByRole('option', { name: 'lim (lim@example.com)' }).click();
    await dialog.getByLabel('Key name').fill('lim-batch');
    await dialog.getByLabel('Quota (USD)').fill('2.5');
    await dialog.getByLabel('Requests per minute').fill('0');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('Must be at least 1.').waitFor();
    expect((await admin.get('/api/admin/keys')).body.data).toEqual([]);
    await dialog.getByLabel('Requests per minute').fill('30');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByTestId('new-key-secret').textContent();
    expect(secret).toMatch(/^sk-/);
    // The secret works for the user, and is never listed.
    const models = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
    expect(models.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    const listed = async () => (await admin.get<{ data: { name: string; status: string; quota_micros: number | null; rpm_limit: number | null; tpm_limit: number | null }[] }>('/api/admin/keys')).body;
    expect(JSON.stringify(await listed())).not.toContain(secret!);
    expect((await listed()).data[0]).toMatchObject({ name: 'lim-batch', quota_micros: 2_500_000, rpm_limit: 30, status: 'active' });

    const row = page.getByRole('row').filter({ hasText: 'lim-batch' });
    await row.getByRole('button', { name: 'Actions for key lim-batch of lim' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Key lim-batch of lim' });
    await edit.getByLabel('Tokens per minute').fill('5000');
    await edit.getByRole('button', { name: 'Save key' }).click();
    await poll(async () => (await listed()).data[0]).toMatchObject({ rpm_limit: 30, tpm_limit: 5000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-config-keys-desktop-light.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-config-keys-phone-light.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);

    await row.getByRole('button', { name: 'Actions for key lim-batch of lim' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: /^Delete the key lim-batch/ }).getByRole('button', { name: 'Delete key' }).click();
    await poll(async () => (await listed()).data[0]?.status).toBe('deleted');
    expect((await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
  });
});
