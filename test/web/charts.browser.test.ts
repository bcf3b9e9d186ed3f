// Charts that do not lie and money never rounded up (issue 31, item 3): in Debian's Chromium against a
// real gateway and the OpenAI simulator, the overview's chart has a point for every hour of the last day
// (zero where idle) on a time axis, requests on the left axis and cost on a right axis of its own in
// dollars; a balance of $8.995 reads $8.995 (it used to read $9.00). Screenshots at desktop and phone.
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-charts';
const USER = { email: 'charts@example.com', password: 'charts password 123' };
const USER_KEY = testKey('chartsuser');
let upstream: OpenAISimulator;
let gateway: TestGateway;
let browser: Browser;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1000, output_per_mtok: 1000 }],
    users: [{ name: 'chartist', email: USER.email, password: USER.password, balance: 8.995 }],
    keys: [{ name: 'charts', key: USER_KEY, user: 'chartist' }],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

async function signedIn(viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  page.setDefaultTimeout(10_000);
  await signInThroughForm(page, gateway.url, USER);
  return page;
}

describe('charts and money', { timeout: 60_000 }, () => {
  it('shows a balance of $8.995 exactly, not rounded up to $9.00', async () => {
    const page = await signedIn(VIEWPORTS.desktop);
    const balance = page.getByText('Balance', { exact: true }).locator('..');
    await expect.poll(async () => balance.textContent()).toContain('$8.995');
    expect(await page.getByText('$9.00').count()).toBe(0);
    await page.context().close();
  });

  it('draws every hour of the last day on a time axis, cost on its own dollar axis', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `call ${i}` }] });
    const api = new ApiClient(gateway.url);
    await api.post('/api/auth/login', USER);
    const now = Date.now();
    await expect.poll(async () => (await api.get(`/api/stats?from=${now - 86_400_000}&to=${now + 1000}&bucket=hour`)).body.totals?.requests).toBe(3);
    const served = (await api.get(`/api/stats?from=${now - 86_400_000}&to=${now + 1000}&bucket=hour`)).body.series as unknown[];
    expect(served.length).toBe(1); // the server sends only the hour with calls: the page fills the rest

    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const page = await signedIn(viewport);
      const chart = page.getByLabel('Chart of Requests and Cost (USD) over time');
      await chart.waitFor();
      // 24 hours from a moment inside an hour: 25 hourly buckets, every one a point.
      expect(await chart.getAttribute('data-points')).toBe('25');
      const yAxes = chart.locator('.recharts-yAxis');
      await expect.poll(async () => yAxes.count()).toBe(2);
      // recharts draws each axis's tick labels in a group of their own (in a z-index layer, apart from the axis).
      const ticksOf = (axis: 'xAxis' | 'yAxis', index = 0) => chart.locator(`.recharts-${axis}-tick-labels`).nth(index).locator('text');
      const rightAxis = ticksOf('yAxis', 1);
      await expect.poll(async () => rightAxis.count()).toBeGreaterThan(1);
      const rightTicks = await rightAxis.allTextContents();
      for (const tick of rightTicks) expect(tick).toMatch(/^\$\d/);
      const leftTicks = await ticksOf('yAxis', 0).allTextContents();
      expect(leftTicks.length).toBeGreaterThan(1);
      for (const tick of leftTicks) expect(tick).toMatch(/^\d+$/);
      const timeTicks = await ticksOf('xAxis').allTextContents();
      expect(timeTicks.length).toBeGreaterThanOrEqual(label === 'phone' ? 2 : 4);
      expect(new Set(timeTicks).size).toBe(timeTicks.length);
      // The tooltip of the busy hour: requests as a count, cost in exact dollars.
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.locator('svg.recharts-surface').first().boundingBox())!;
      const tooltip = page.getByTestId('series-tooltip');
      // The busy hour is the last point, left of the right axis: sweep towards it until its tooltip shows.
      let shown = '';
      for (let fromRight = 80; fromRight < 200 && !shown.includes('Requests: 3'); fromRight += 6) {
        await page.mouse.move(box.x + box.width - fromRight, box.y + box.height / 2);
        shown = (await tooltip.count()) > 0 ? ((await tooltip.textContent()) ?? '') : '';
      }
      expect(shown).toContain('Requests: 3');
      expect(await tooltip.textContent()).toMatch(/Cost \(USD\): \$0\.0\d+/);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `overview-chart-${label}-light.png`), fullPage: label === 'desktop' });
      await page.context().close();
    }
  });

  // After the calls of the test above.
  it('the usage page draws cost alone on a dollar axis, a week by the hour, every hour a point', async () => {
    const page = await signedIn(VIEWPORTS.desktop);
    await page.goto(`${gateway.url}/usage`);
    await page.getByRole('radiogroup', { name: 'Range' }).getByText('7 days', { exact: true }).click();
    await page.getByRole('radiogroup', { name: 'Metric' }).getByText('Cost', { exact: true }).click();
    const chart = page.getByLabel('Chart of Cost (USD) over time');
    await chart.waitFor();
    // Seven days from a moment inside an hour: 7 × 24 + 1 hourly buckets.
    expect(await chart.getAttribute('data-points')).toBe(String(7 * 24 + 1));
    const ticks = chart.locator('.recharts-yAxis-tick-labels').first().locator('text');
    await expect.poll(async () => ticks.count()).toBeGreaterThan(1);
    for (const tick of await ticks.allTextContents()) expect(tick).toMatch(/^\$\d/);
    await page.context().close();
  });
});
