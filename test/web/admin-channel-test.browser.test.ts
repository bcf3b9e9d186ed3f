// The channel "Test" button tells the truth (issue 31, item 1): in Debian's Chromium against a real gateway
// and the OpenAI simulator, a working channel, one at a closed port, one with a wrong upstream key, one an
// administrator disabled and one the gateway disabled itself each show what the API says: ok and the
// latency, or the upstream's status and error. A failing test never re-enables a channel; a passing test
// re-enables only a channel the gateway disabled, never one an administrator turned off.
import { createServer } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-channel-test';
const ADMIN = { email: 'tester-root@example.com', password: 'tester root password 1' };
const USER_KEY = testKey('channeltestuser');
let upstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;
let page: Page;
let admin: ApiClient;
let closedPort = 0;

async function portNobodyListensOn(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  closedPort = await portNobodyListensOn();
  gateway = await startTestGateway({
    channels: [
      { name: 'works', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] },
      { name: 'closed-port', type: 'openai', base_url: `http://127.0.0.1:${closedPort}`, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'], priority: -1 },
      { name: 'wrong-key', type: 'openai', base_url: upstream.url, api_key: 'sk-not-the-upstream-key', models: ['gpt-4o-mini'], priority: -1 },
      { name: 'turned-off', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'], enabled: false },
      { name: 'refused', type: 'openai', base_url: upstream.url, api_key: 'sk-revoked-upstream-key', models: ['refused-model'] },
    ],
    models: [
      { id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 1 },
      { id: 'refused-model', input_per_mtok: 1, output_per_mtok: 1 },
    ],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'ula', balance: 5 }],
    keys: [{ name: 'ula', key: USER_KEY, user: 'ula' }],
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

interface ChannelView { id: number; name: string; status: string; enabled: boolean }
const channelsNow = async () => (await admin.get<{ data: ChannelView[] }>('/api/admin/channels')).body.data;
const channelNamed = async (name: string) => (await channelsNow()).find((channel) => channel.name === name)!;

/** Clicks Test in the channel's row and answers the sentence the row then shows. */
async function testInPage(name: string): Promise<string> {
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const result = row.getByTestId('channel-test-result');
  const before = (await result.count()) > 0 ? await result.textContent() : null;
  await row.getByRole('button', { name: `Test ${name}` }).click();
  await expect.poll(async () => ((await result.count()) > 0 ? await result.textContent() : null)).not.toBe(before);
  await expect.poll(async () => row.getByRole('button', { name: `Test ${name}` }).isEnabled()).toBe(true);
  return (await result.textContent())!;
}

/** The same test through the API, without re-enabling anything. */
async function testThroughApi(name: string) {
  const answer = await admin.post(`/api/admin/channels/${(await channelNamed(name)).id}/test`, {});
  expect(answer.status).toBe(200);
  return answer.body as { ok: boolean; status: number | null; latency_ms: number; error: string | null; model: string };
}

describe('channel test in the admin page', { timeout: 60_000 }, () => {
  it('shows ok and the latency for a working channel', async () => {
    await page.goto(`${gateway.url}/admin/channels`);
    const shown = await testInPage('works');
    expect(shown).toMatch(/^Test passed: answered gpt-4o-mini in \d+ ms\.$/);
    expect(await testThroughApi('works')).toMatchObject({ ok: true, status: 200, error: null });
  });

  it("shows the connection error of a channel at a closed port, as the API says it", async () => {
    const shown = await testInPage('closed-port');
    const api = await testThroughApi('closed-port');
    expect(api).toMatchObject({ ok: false, status: null });
    expect(api.error).toBeTruthy();
    expect(shown).toMatch(/^Test failed, gpt-4o-mini: no answer after \d+ ms: /);
    expect(shown.endsWith(`: ${api.error}`)).toBe(true);
    expect(shown).toContain('ECONNREFUSED');
  });

  it("shows the upstream's 401 for a wrong upstream key, without the key", async () => {
    const shown = await testInPage('wrong-key');
    const api = await testThroughApi('wrong-key');
    expect(api).toMatchObject({ ok: false, status: 401 });
    expect(shown).toMatch(/^Test failed, gpt-4o-mini: HTTP 401 after \d+ ms: /);
    // The upstream's message from its error envelope, word for word.
    const upstreamMessage = (JSON.parse(api.error!) as { error: { message: string } }).error.message;
    expect(upstreamMessage).toContain('Incorrect API key');
    expect(shown.endsWith(`: ${upstreamMessage}`)).toBe(true);
    expect(shown).not.toContain('sk-not-the-upstream-key');
    expect((await channelNamed('wrong-key')).enabled).toBe(true);
  });

  it('tests a channel an administrator disabled and leaves it disabled', async () => {
    const shown = await testInPage('turned-off');
    expect(shown).toMatch(/^Test passed: answered gpt-4o-mini in \d+ ms\.$/);
    expect(await channelNamed('turned-off')).toMatchObject({ status: 'disabled', enabled: false });
    await expect.poll(async () => page.getByRole('row').filter({ hasText: 'turned-off' }).getByText('Disabled', { exact: true }).count()).toBe(1);
    // Four answers side by side, for a person to look at (test-results/screenshots).
    await page.waitForTimeout(400); // the toast's entrance, for the picture
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-tests-desktop-light.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-channel-tests-phone-light.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('a channel the gateway disabled stays disabled while its test fails, and is enabled again once it passes', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'refused-model', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
    await expect.poll(async () => (await channelNamed('refused')).status).toBe('auto_disabled');
    await page.reload();
    await page.getByText('Disabled automatically').waitFor();

    const failed = await testInPage('refused');
    expect(failed).toMatch(/^Test failed, refused-model: HTTP 401 after \d+ ms: /);
    expect(await channelNamed('refused')).toMatchObject({ status: 'auto_disabled', enabled: false });

    const refused = await channelNamed('refused');
    expect((await admin.patch(`/api/admin/channels/${refused.id}`, { api_key: UPSTREAM_KEY })).status).toBe(200);
    expect((await channelNamed('refused')).status).toBe('auto_disabled');
    const passed = await testInPage('refused');
    expect(passed).toMatch(/^Test passed: answered refused-model in \d+ ms, and is enabled again\.$/);
    expect(await channelNamed('refused')).toMatchObject({ status: 'enabled', enabled: true });
  });

  it('refuses a model the channel does not serve, naming the field', async () => {
    const answer = await admin.post(`/api/admin/channels/${(await channelNamed('works')).id}/test`, { model: 'not-served' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.param).toBe('model');
  });
});
