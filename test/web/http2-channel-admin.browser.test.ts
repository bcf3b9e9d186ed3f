// The admin channel form's "HTTP version to the upstream" control (Automatic, HTTP/2, HTTP/1.1 only), in
// Debian's Chromium against a real gateway and real upstream simulators:
// - HTTP/2 chosen for an upstream that speaks only h2c: a user's call is answered, over HTTP/2 (an HTTP/1.1
//   request would fail on that server); the edit dialog shows HTTP/2; Automatic saved clears the setting.
// - a TLS upstream that offers h2 and http/1.1: a new channel starts on Automatic and the server picks h2;
//   HTTP/1.1 only saved, the next call arrives as HTTP/1.1, the admin API lists http2: false and the edit
//   dialog shows it; back to Automatic (by keyboard), the setting is gone and the server picks h2 again.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { join } from 'node:path';
import { launchBrowser, openCreateChannelDialog, SCREENSHOT_DIR, VIEWPORTS } from './browser.ts';

const ADMIN = { email: 'h2-root@example.com', password: 'h2 root password 1' };
const USER_KEY = testKey('h2pageuser');
const UPSTREAM_KEY = 'sk-upstream-h2-page';
const CONTROL = 'HTTP version to the upstream';
let h2cUpstream: OpenAISimulator;
let tlsUpstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;
let client: OpenAI;
const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

beforeAll(async () => {
  // The TLS simulator's certificate is self-signed (test/simulators/test-tls-certificate.ts); the gateway's
  // agents verify through Node's default, read at each connection from this variable (this file runs in a
  // process of its own), as in test/e2e/http2-upstream.test.ts.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  h2cUpstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, http2: true });
  tlsUpstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, tls: true, http2: true });
  gateway = await startTestGateway({
    models: ['gpt-h2-page', 'gpt-tls-page'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 1 })),
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'hana', balance: 5 }],
    keys: [{ name: 'hana', key: USER_KEY, user: 'hana' }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await h2cUpstream?.close();
  await tlsUpstream?.close();
  if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
});

async function fillChannel(dialog: Locator, name: string, baseUrl: string, model: string): Promise<void> {
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Base URL').fill(baseUrl);
  await dialog.getByLabel('Upstream API key').fill(UPSTREAM_KEY);
  await dialog.getByLabel('Models').fill(model);
  await dialog.getByLabel('Model mapping (JSON)').fill(`{"${model}": "gpt-4o"}`);
}

/** The control, found by its visible label as a screen reader user would. */
const httpVersion = (dialog: Locator) => dialog.getByRole('radiogroup', { name: CONTROL });

async function chosen(dialog: Locator): Promise<string[]> {
  const names: string[] = [];
  for (const name of ['Automatic', 'HTTP/2', 'HTTP/1.1 only']) {
    if (await httpVersion(dialog).getByRole('radio', { name, exact: true }).isChecked()) names.push(name);
  }
  return names;
}

async function openEdit(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByRole('heading', { name: `Edit ${name}` }).waitFor();
  return edit;
}

async function save(edit: Locator): Promise<void> {
  await edit.getByRole('button', { name: 'Save channel' }).click();
  await edit.waitFor({ state: 'hidden' });
}

/** The channel as the admin API lists it to the page. */
async function listed(page: Page, name: string): Promise<{ name: string; http2?: boolean }> {
  const body = await page.evaluate(async () => (await (await fetch('/api/admin/channels', { credentials: 'include' })).json()) as unknown);
  const rows = (Array.isArray(body) ? body : (body as { data: unknown[] }).data) as { name: string; http2?: boolean }[];
  const channel = rows.find((row) => row.name === name);
  expect(channel).toBeDefined();
  return channel!;
}

async function ask(model: string, content: string): Promise<void> {
  const answer = await client.chat.completions.create({ model, messages: [{ role: 'user', content }] });
  expect(answer.choices[0]!.message.content).toContain(content);
}

describe('admin channel page, HTTP version to the upstream', () => {
  it('creates a channel that speaks HTTP/2 to its upstream, shows HTTP/2 when edited, and goes back to Automatic', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const dialog = await openCreateChannelDialog(page, gateway.url, ADMIN);
    await fillChannel(dialog, 'h2c-page', h2cUpstream.url, 'gpt-h2-page');
    await httpVersion(dialog).getByRole('radio', { name: 'HTTP/2', exact: true }).check();
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('cell', { name: 'h2c-page', exact: true }).waitFor();

    await ask('gpt-h2-page', 'over h2');
    expect(h2cUpstream.requests.at(-1)!.httpVersion).toBe('2.0');

    // Dismissed so that it does not cover the dialog's title in the screenshots below.
    const created = page.getByRole('alert').filter({ hasText: 'Channel created.' });
    await created.getByRole('button').click();
    await created.waitFor({ state: 'hidden' });
    const edit = await openEdit(page, 'h2c-page');
    expect(await chosen(edit)).toEqual(['HTTP/2']);
    // The control and its description at both widths, for a person to look at (test-results/screenshots),
    // after the modal's opening transition and the phone layout's reflow.
    await httpVersion(edit).scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-http2-desktop-light.png') });
    await page.setViewportSize(VIEWPORTS.phone);
    await httpVersion(edit).scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-http2-phone-light.png') });
    // Nothing of it runs past the phone's width (three choices side by side did).
    const overflow = await httpVersion(edit).evaluate((group) => group.scrollWidth - group.clientWidth);
    expect(overflow).toBe(0);
    await httpVersion(edit).getByRole('radio', { name: 'Automatic', exact: true }).check();
    await save(edit);
    // Saved as automatic: the admin API, as the page reads it, no longer lists the setting.
    expect((await listed(page, 'h2c-page')).http2).toBeUndefined();
    await context.close();
  }, 60_000);

  it('sets HTTP/1.1 only on a TLS upstream that offers h2, shows it when edited, and goes back to Automatic', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const dialog = await openCreateChannelDialog(page, gateway.url, ADMIN);
    expect(await chosen(dialog)).toEqual(['Automatic']);
    await fillChannel(dialog, 'tls-page', tlsUpstream.url, 'gpt-tls-page');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('cell', { name: 'tls-page', exact: true }).waitFor();
    expect((await listed(page, 'tls-page')).http2).toBeUndefined();
    // Automatic: ALPN offers both, and this server chooses h2.
    await ask('gpt-tls-page', 'automatic first');
    expect(tlsUpstream.requests.at(-1)!.httpVersion).toBe('2.0');

    let edit = await openEdit(page, 'tls-page');
    expect(await chosen(edit)).toEqual(['Automatic']);
    await httpVersion(edit).getByRole('radio', { name: 'HTTP/1.1 only', exact: true }).check();
    expect(await chosen(edit)).toEqual(['HTTP/1.1 only']);
    await save(edit);
    expect((await listed(page, 'tls-page')).http2).toBe(false);
    await ask('gpt-tls-page', 'forced to 1.1');
    expect(tlsUpstream.requests.at(-1)!.httpVersion).toBe('1.1');

    edit = await openEdit(page, 'tls-page');
    expect(await chosen(edit)).toEqual(['HTTP/1.1 only']);
    // Keyboard: the group's radios move with the arrow keys, as native radios do.
    await httpVersion(edit).getByRole('radio', { name: 'HTTP/1.1 only', exact: true }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await chosen(edit)).toEqual(['Automatic']);
    await save(edit);
    expect((await listed(page, 'tls-page')).http2).toBeUndefined();
    await ask('gpt-tls-page', 'automatic again');
    expect(tlsUpstream.requests.at(-1)!.httpVersion).toBe('2.0');
    await context.close();
  }, 60_000);
});
