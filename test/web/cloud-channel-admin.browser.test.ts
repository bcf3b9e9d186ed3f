// The admin channel page with a cloud type, in Debian's Chromium against a real gateway: an admin creates
// a Vertex AI channel (project, location, token endpoint, the service-account JSON as its key), a user's
// key is answered through it at once, and the edit dialog shows the settings but never the key.
import { generateKeyPairSync } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startVertexSimulator, type VertexSimulator } from '../simulators/vertex-simulator.ts';
import { join } from 'node:path';
import { launchBrowser, openCreateChannelDialog, SCREENSHOT_DIR, VIEWPORTS } from './browser.ts';

const ADMIN = { email: 'cloud-root@example.com', password: 'cloud root password 1' };
const USER_KEY = testKey('cloudpageuser');
const PROJECT = 'page-project-1';
const EMAIL = 'page@page-project-1.iam.gserviceaccount.com';
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
let sim: VertexSimulator;
let gateway: TestGateway;
let browser: Browser;

beforeAll(async () => {
  sim = await startVertexSimulator({ project: PROJECT, serviceAccounts: { [EMAIL]: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
  gateway = await startTestGateway({
    models: [{ id: 'gemini-page', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'una', balance: 5 }],
    keys: [{ name: 'una', key: USER_KEY, user: 'una' }],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await sim?.close();
});

describe('admin channel page, cloud types', () => {
  it('creates a Vertex channel that answers at once, and shows its settings but not its key when edited', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const dialog = await openCreateChannelDialog(page, gateway.url, ADMIN);
    await dialog.getByLabel('Name').fill('vertex-page');
    await dialog.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: 'vertex' }).click();
    await dialog.getByLabel('Base URL').fill(sim.url);
    await dialog.getByLabel('Google Cloud project').fill(PROJECT);
    await dialog.getByLabel('Vertex AI location').fill('us-central1');
    await dialog.getByLabel('Token endpoint').fill(`${sim.url}/token`);
    const serviceAccount = JSON.stringify({ type: 'service_account', client_email: EMAIL, private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    await dialog.getByLabel('Upstream API key').fill(serviceAccount);
    await dialog.getByLabel('Models').fill('gemini-page');
    await dialog.getByLabel('Model mapping (JSON)').fill('{"gemini-page": "gemini-2.5-flash"}');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('cell', { name: 'vertex-page', exact: true }).waitFor();

    const answer = await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 }).chat.completions.create({ model: 'gemini-page', messages: [{ role: 'user', content: 'from the page' }] });
    expect(answer.choices[0]!.message.content).toBe('Hello from the Gemini simulator: you said "from the page"');
    expect(sim.requests.at(-1)!.path).toBe(`/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`);

    await page.getByRole('button', { name: 'Actions for vertex-page' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    expect(await edit.getByLabel('Google Cloud project').inputValue()).toBe(PROJECT);
    expect(await edit.getByLabel('Vertex AI location').inputValue()).toBe('us-central1');
    expect(await edit.getByLabel('Upstream API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('PRIVATE KEY');
    // The channel form at both widths, for a person to look at (test-results/screenshots).
    // (after the modal's opening transition and the phone layout's reflow, so the pictures show the settled form)
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-form-desktop-light.png') });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-form-phone-light.png') });
    await context.close();
  }, 60_000);
});
