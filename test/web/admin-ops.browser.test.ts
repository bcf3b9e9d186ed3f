// The operator's view in Debian's Chromium (issue 31, item 2), at desktop and phone width, against a real
// gateway and the upstream simulators: the platform overview shows what the API sums; all logs show user
// names, filter, open a call's calculation and export the filtered CSV; the channel list shows each
// upstream's balance (or that it has none), tests every channel at once, and adds models fetched from the
// upstream to a channel. Screenshots in test-results/screenshots/admin-ops-*.
import { createServer } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-ops-browser';
const ADMIN = { email: 'ops-browser-root@example.com', password: 'ops browser root password' };
const ALICE_KEY = testKey('opsbrowseralice');
const BOB_KEY = testKey('opsbrowserbob');
let billed: OpenAISimulator;
let plain: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: ApiClient;

async function portNobodyListensOn(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  billed = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, billing: { kind: 'subscription', hardLimitUsd: 100, usedUsd: 12.34 }, models: ['gpt-4o-mini', 'gpt-4o', 'o3-mini'] });
  plain = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  const closedPort = await portNobodyListensOn();
  gateway = await startTestGateway({
    channels: [
      { name: 'billed', type: 'openai', base_url: billed.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] },
      { name: 'plain', type: 'openai', base_url: plain.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] },
      { name: 'closed', type: 'openai', base_url: `http://127.0.0.1:${closedPort}`, api_key: UPSTREAM_KEY, models: ['broken-model'] },
    ],
    models: ['gpt-4o-mini', 'gpt-4o', 'broken-model'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 2 })),
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: 'Alice Browser', email: 'alice-browser@example.com', balance: 10 },
      { name: 'Bob Browser', email: 'bob-browser@example.com', balance: 10 },
    ],
    keys: [{ name: 'alice-laptop', key: ALICE_KEY, user: 'Alice Browser' }, { name: 'bob-ci', key: BOB_KEY, user: 'Bob Browser' }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  const aliceClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: ALICE_KEY, maxRetries: 0 });
  const bobClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: BOB_KEY, maxRetries: 0 });
  for (let i = 0; i < 3; i += 1) await aliceClient.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello ${i}` }] });
  await bobClient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  await expect(bobClient.chat.completions.create({ model: 'broken-model', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
  // The metering writer flushes behind the calls: wait until the roll-ups hold all five.
  for (let tries = 0; (await admin.get('/api/admin/overview')).body.traffic?.requests !== 5; tries += 1) {
    if (tries > 100) throw new Error('the five calls never reached the statistics');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await signInThroughForm(page, gateway.url, ADMIN);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await billed?.close();
  await plain?.close();
});

/** Desktop and phone pictures of the page as it is now. */
async function screenshots(name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop-light.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.phone);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone-light.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.desktop);
}

/** Polled for up to 10 s: under a loaded machine a page's chunk and data may take a few seconds. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
const stat = (label: string) => page.getByTestId(`stat-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`);

describe('the operator view', { timeout: 60_000 }, () => {
  it('the admin pages open on the platform overview, with the numbers the API sums', async () => {
    await page.goto(`${gateway.url}/admin`);
    await page.getByRole('heading', { name: 'Platform overview' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/overview');
    const api = (await admin.get('/api/admin/overview')).body;
    await poll(async () => stat('Requests').textContent()).toBe('5');
    expect(await stat('Failed calls').textContent()).toBe('1');
    expect(await stat('Charged to users').textContent()).toBe(`$${api.cost_usd.toFixed(6).replace(/0{1,4}$/, '')}`);
    const users = page.getByRole('table', { name: 'Top users' });
    await poll(async () => (await users.getByRole('row').allTextContents()).slice(1)).toEqual([
      expect.stringMatching(/^Alice Browseralice-browser@example\.com3\$/),
      expect.stringMatching(/^Bob Browserbob-browser@example\.com2\$/),
    ]);
    const health = page.getByRole('table', { name: 'Channel health' }).getByRole('row').filter({ has: page.getByRole('cell', { name: 'closed', exact: true }) });
    expect(await health.textContent()).toMatch(/^closedEnabledClosed \(healthy\)[1-9]\d*.*: no answer GW_ERR_UPSTREAM_UNREACHABLE: The upstream channel 'closed' could not be reached\.$/);
    for (const width of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(width);
      // Nothing wider than the screen but the tables' own scroll areas.
      // (Polled: the chart follows the new width a frame or two later.)
      await poll(async () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1
        ? Array.from(document.querySelectorAll('body *')).filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map((element) => `${element.tagName}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`)
        : [])).toEqual([]);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshots('admin-overview');
  });

  it("all logs show whose call it was, filter by user, open the call's calculation and export the filtered CSV", async () => {
    await page.goto(`${gateway.url}/admin/logs`);
    const table = page.getByRole('table', { name: 'All calls' });
    await poll(async () => table.getByRole('row').count()).toBe(6);
    expect(await table.textContent()).toContain('bob-browser@example.com');
    await page.getByLabel('User e-mail').fill('ALICE-browser@example.com');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(async () => table.getByRole('row').count()).toBe(4);
    for (const row of (await table.getByRole('row').allTextContents()).slice(1)) expect(row).toContain('Alice Browseralice-browser@example.com');

    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toContain('user=ALICE-browser%40example.com');
    const csv = await admin.get(href!);
    expect(csv.text.trim().split('\n')).toHaveLength(4);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toBe('all-usage-logs.csv');

    await table.getByRole('button', { name: /^Details of call/ }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Call details' });
    await drawer.getByRole('heading', { name: 'How this charge was computed' }).waitFor();
    expect(await drawer.textContent()).toContain('alice-browser@example.com');
    await screenshots('admin-all-logs-detail');
    await page.keyboard.press('Escape');

    await page.getByLabel('User e-mail').fill('');
    await page.getByRole('textbox', { name: 'Status' }).fill('502');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(async () => table.getByRole('row').count()).toBe(2);
    expect(await table.textContent()).toContain('closed');
    await screenshots('admin-all-logs');
  });

  it('all logs are cards on a phone: nothing scrolls sideways, and each card names the user, model, cost and status', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    try {
      await page.goto(`${gateway.url}/admin/logs`);
      const cards = page.locator('[data-layout="cards"]');
      const failed = cards.locator('tbody tr').filter({ hasText: 'broken-model' }).first();
      await failed.waitFor();
      const cells = async (card: typeof failed) => card.locator('td').evaluateAll((tds) => tds.map((td) => ({ label: td.getAttribute('data-label'), text: td.textContent, shown: (td as HTMLElement).offsetHeight > 0 && td.getBoundingClientRect().right <= window.innerWidth })));
      const failedCells = await cells(failed);
      expect(failedCells.map((cell) => cell.label)).toEqual(['Time', 'User', 'Key', 'Model', 'Channel', 'Outcome', 'Tokens in / out', 'Cost', '']);
      expect(failedCells.every((cell) => cell.shown)).toBe(true);
      const byLabel = (list: typeof failedCells) => Object.fromEntries(list.map((cell) => [cell.label, cell.text]));
      expect(byLabel(failedCells)).toMatchObject({ User: 'Bob Browserbob-browser@example.com', Model: 'broken-model', Outcome: expect.stringMatching(/^Failed 502/), Cost: '$0.00' });
      const ok = cards.locator('tbody tr').filter({ hasText: 'Alice Browser' }).first();
      expect(byLabel(await cells(ok))).toMatchObject({ User: 'Alice Browseralice-browser@example.com', Outcome: 'OK', Cost: expect.stringMatching(/^\$0\.\d+$/) });
      // Nothing wider than the phone's screen: no sideways scroll, on the page or in a card.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      const cut = await page.locator('.mantine-Badge-label').evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent));
      expect(cut).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-all-logs-cards-phone-light.png'), fullPage: true });
    } finally {
      await page.setViewportSize(VIEWPORTS.desktop);
    }
  });

  it("the channel list shows each upstream's balance, or that it has none", async () => {
    await page.goto(`${gateway.url}/admin/channels`);
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await row('billed').getByRole('button', { name: 'Check the balance of billed' }).click();
    await poll(async () => row('billed').getByTestId('channel-balance').textContent()).toBe('$87.66 left (of $100.00, $12.34 used)');
    await row('plain').getByRole('button', { name: 'Check the balance of plain' }).click();
    await poll(async () => row('plain').getByTestId('channel-balance').textContent()).toBe('Not available: the upstream does not report a balance (HTTP 404)');
  });

  it('tests every channel at once and shows each result in its row', async () => {
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await page.getByRole('button', { name: 'Test all channels' }).click();
    await poll(async () => page.getByTestId('test-all-summary').textContent()).toBe('2 passed, 1 failed.');
    expect(await row('billed').getByTestId('channel-test-result').textContent()).toMatch(/^Test passed: answered gpt-4o-mini in \d+ ms\.$/);
    expect(await row('closed').getByTestId('channel-test-result').textContent()).toMatch(/^Test failed, broken-model: no answer after \d+ ms: .*ECONNREFUSED/);
    await screenshots('admin-channels-ops');
  });

  it("adds models fetched from the upstream to a channel", async () => {
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'billed', exact: true }) });
    await row.getByRole('button', { name: 'Actions for billed' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit billed' });
    await dialog.getByRole('button', { name: 'Fetch models from the upstream' }).click();
    await dialog.getByText('3 offered, 1 already on this channel').waitFor();
    // The one the channel serves is not offered again.
    expect(await dialog.getByRole('checkbox').count()).toBe(2);
    await dialog.getByRole('checkbox', { name: 'o3-mini' }).check();
    await screenshots('admin-channel-fetch-models');
    await dialog.getByRole('button', { name: 'Add 1 to the models' }).click();
    expect(await dialog.getByLabel('Models', { exact: true }).inputValue()).toBe('gpt-4o-mini\no3-mini');
    await dialog.getByRole('button', { name: 'Save channel' }).click();
    await poll(async () => (await admin.get('/api/admin/channels')).body.data.find((channel: { name: string }) => channel.name === 'billed').models).toEqual(['gpt-4o-mini', 'o3-mini']);
  });
});
