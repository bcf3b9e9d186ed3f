// The admin channel form's "HTTP/2 to the upstream" switch, in Debian's Chromium against a real gateway: an
// admin creates an OpenAI channel with the switch on, pointing at an upstream that speaks only h2c; a user's
// call through it is answered at once (so it really went over HTTP/2: an HTTP/1.1 request would fail on that
// server), and the edit dialog shows the switch on; switched off and saved, the admin API no longer lists it.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { join } from 'node:path';
import { launchBrowser, openCreateChannelDialog, SCREENSHOT_DIR, VIEWPORTS } from './browser.ts';

const ADMIN = { email: 'h2-root@example.com', password: 'h2 root password 1' };
const USER_KEY = testKey('h2pageuser');
const UPSTREAM_KEY = 'sk-upstream-h2-page';
let upstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, http2: true });
  gateway = await startTestGateway({
    models: [{ id: 'gpt-h2-page', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'hana', balance: 5 }],
    keys: [{ name: 'hana', key: USER_KEY, user: 'hana' }],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

describe('admin channel page, HTTP/2 switch', () => {
  it('creates a channel that speaks HTTP/2 to its upstream, shows the switch on when edited, and turns it off', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const dialog = await openCreateChannelDialog(page, gateway.url, ADMIN);
    await dialog.getByLabel('Name').fill('h2c-page');
    await dialog.getByLabel('Base URL').fill(upstream.url);
    await dialog.getByLabel('Upstream API key').fill(UPSTREAM_KEY);
    await dialog.getByLabel('Models').fill('gpt-h2-page');
    await dialog.getByLabel('Model mapping (JSON)').fill('{"gpt-h2-page": "gpt-4o"}');
    await dialog.getByLabel('HTTP/2 to the upstream').check();
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('cell', { name: 'h2c-page', exact: true }).waitFor();

    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'gpt-h2-page', messages: [{ role: 'user', content: 'over h2' }] });
    expect(answer.choices[0]!.message.content).toContain('over h2');
    expect(upstream.requests.at(-1)!.httpVersion).toBe('2.0');

    await page.getByRole('button', { name: 'Actions for h2c-page' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    expect(await edit.getByLabel('HTTP/2 to the upstream').isChecked()).toBe(true);
    // The switch and its description at both widths, for a person to look at (test-results/screenshots),
    // after the modal's opening transition and the phone layout's reflow.
    await edit.getByText('HTTP/2 to the upstream').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-http2-desktop-light.png') });
    await page.setViewportSize(VIEWPORTS.phone);
    await edit.getByText('HTTP/2 to the upstream').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-http2-phone-light.png') });
    await edit.getByLabel('HTTP/2 to the upstream').uncheck();
    await edit.getByRole('button', { name: 'Save channel' }).click();
    await edit.waitFor({ state: 'hidden' });
    // Saved without the setting: the admin API, as the page reads it, no longer lists it.
    const listed = await page.evaluate(async () => (await (await fetch('/api/admin/channels', { credentials: 'include' })).json()) as unknown);
    const rows = (Array.isArray(listed) ? listed : (listed as { data: unknown[] }).data) as { name: string; http2?: boolean }[];
    const channel = rows.find((row) => row.name === 'h2c-page');
    expect(channel).toBeDefined();
    expect(channel!.http2).toBeUndefined();
    await context.close();
  }, 60_000);
});
