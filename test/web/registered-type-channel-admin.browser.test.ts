// The channel form renders a type the dashboard has never heard of, in Debian's Chromium against a real
// gateway: the toy type (test/formats/toy-chat), registered at run time in one line, shows its own settings
// block (a fieldset with its tenant, and its signing secret as a password field) from the JSON Schema the
// gateway publishes; the channel created through the form answers at once; the edit dialog shows the tenant
// but neither the secret nor the key, and saving it with both left empty keeps them.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { registerProvider } from '../../src/providers/registry.ts';
import { toyChatFormat, toyProvider } from '../formats/toy-chat/index.ts';
import { startToySimulator, type ToySimulator } from '../simulators/toy-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { join } from 'node:path';
import { launchBrowser, openCreateChannelDialog, SCREENSHOT_DIR } from './browser.ts';

registerProvider(toyProvider, toyChatFormat);

const ADMIN = { email: 'toy-root@example.com', password: 'toy root password 1' };
const USER_KEY = testKey('toypageuser');
const SECRET = 'page-toy-secret';
let upstream: ToySimulator;
let gateway: TestGateway;
let browser: Browser;

beforeAll(async () => {
  upstream = await startToySimulator({ apiKey: 'toy-page-key', tenant: 'quay', secret: SECRET });
  gateway = await startTestGateway({
    models: [{ id: 'toy-page', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'tam', balance: 5 }],
    keys: [{ name: 'tam', key: USER_KEY, user: 'tam' }],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

const ask = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 }).chat.completions.create({ model: 'toy-page', messages: [{ role: 'user', content: 'from the form' }] });

describe('admin channel page, a type registered at run time', () => {
  it('renders the type\'s own fields from its schema, creates a channel that answers, and keeps its secret through an edit', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const dialog = await openCreateChannelDialog(page, gateway.url, ADMIN);
    await dialog.getByLabel('Name').fill('toy-channel');
    await dialog.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: 'toy', exact: true }).click();
    await dialog.getByLabel('Base URL').fill(upstream.url);
    await expect(dialog.getByRole('group', { name: 'Toy upstream' }).isVisible()).resolves.toBe(true);
    await dialog.getByLabel('Toy tenant').fill('quay');
    await dialog.getByLabel('Toy signing secret').fill(SECRET);
    await dialog.getByLabel('Toy key').fill('toy-page-key');
    await dialog.getByLabel('Models').fill('toy-page');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('cell', { name: 'toy-channel', exact: true }).waitFor();

    expect((await ask()).choices[0]!.message.content).toBe('Hello from the Toy simulator: you said "from the form"');
    expect(upstream.requests.at(-1)!.headers['x-toy-secret']).toBe(SECRET);

    await page.getByRole('button', { name: 'Actions for toy-channel' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    expect(await edit.getByLabel('Toy tenant').inputValue()).toBe('quay');
    expect(await edit.getByLabel('Toy signing secret').inputValue()).toBe('');
    expect(await edit.getByText('leave empty to keep the current value').isVisible()).toBe(true);
    expect(await page.content()).not.toContain(SECRET);
    // The form of a type the dashboard does not know, for a person to look at (test-results/screenshots).
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-form-registered-type.png') });
    await edit.getByLabel('Weight').fill('2');
    await edit.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText('Channel saved.').waitFor();

    expect((await ask()).choices[0]!.message.content).toContain('from the form');
    expect(upstream.requests.at(-1)!.headers['x-toy-secret']).toBe(SECRET);
    await context.close();
  }, 60_000);
});
