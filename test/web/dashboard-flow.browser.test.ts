// The whole dashboard in Debian's Chromium against a real gateway, the upstream and Stripe simulators and
// an in-process SMTP server (issue 13's "Done when"): sign up → the mailed link → sign in → two-factor on →
// sign out and in with a TOTP code → create a key → the openai SDK calls with it → the call shows on /logs
// and /usage → a streamed answer in the playground → top up through the payment simulator → the balance
// grows; an admin creates a channel and a price and the user's key uses it at once. Screenshots of every
// page at desktop and phone width, light and dark, go to test-results/screenshots.
import { createServer } from 'node:net';
import OpenAI from 'openai';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startStripeSimulator, type StripeSimulator } from '../simulators/stripe-simulator.ts';
import { contrastProblems, launchBrowser, screenshotEverywhere } from './browser.ts';

const UPSTREAM_KEY = 'sk-upstream-dashboard';
const ADMIN = { email: 'root@example.com', password: 'root password 12345' };
const USER = { email: 'dana@example.com', password: 'dana password 12345', name: 'Dana' };

let smtp: TestSmtp;
let upstream: OpenAISimulator;
let stripe: StripeSimulator;
let gateway: TestGateway;
let browser: Browser;
let user: BrowserContext;
let page: Page;
let userKey = '';
let totpSecret = '';
let recoveryCodes: string[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  stripe = await startStripeSimulator({ secretKey: 'sk_test_dashboard', webhookSecret: 'whsec_dashboard' });
  const port = await freePort();
  gateway = await startTestGateway({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }],
  }, {
    env: {
      PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, MAIL_POLL_MS: '100',
      STRIPE_SECRET_KEY: 'sk_test_dashboard', STRIPE_WEBHOOK_SECRET: 'whsec_dashboard', STRIPE_API_BASE: stripe.url,
    },
  });
  stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
  browser = await launchBrowser();
  user = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await user.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await Promise.all([smtp?.close(), upstream?.close(), stripe?.close()]);
});

const heading = (target: Page, name: string) => target.getByRole('heading', { level: 1, name });

async function signIn(target: Page, who: { email: string; password: string }, code?: () => Promise<string>) {
  await target.goto(`${gateway.url}/login`);
  await target.getByLabel(/^Email/).fill(who.email);
  await target.getByLabel(/^Password/).fill(who.password);
  await target.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (code) {
    await target.getByLabel('Code').fill(await code());
    await target.getByRole('button', { name: 'Verify' }).click();
  }
  await heading(target, 'Overview').waitFor();
}

describe('the dashboard, end to end in Chromium', { timeout: 90_000 }, () => {
  it('signs up, follows the mailed link and signs in', async () => {
    await page.goto(`${gateway.url}/signup`);
    await page.getByLabel(/^Email/).fill(USER.email);
    await page.getByLabel(/^Password/).fill(USER.password);
    await page.getByLabel('Name').fill(USER.name);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await heading(page, 'Check your inbox').waitFor();
    const mail = await smtp.waitFor(USER.email, /Confirm/);
    await page.goto(linkIn(mail, '/verify-email?token='));
    await heading(page, 'Address verified').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, USER);
    expect(await page.getByText(USER.email).first().isVisible()).toBe(true);
  });

  it('turns two-factor on with the QR code and recovery codes, then signs out and in with a TOTP code', async () => {
    await page.goto(`${gateway.url}/settings`);
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    totpSecret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Code').fill(await generate({ secret: totpSecret }));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText('Two-factor sign-in is on', { exact: true }).waitFor();
    recoveryCodes = await page.getByLabel('Recovery codes').locator('code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in').waitFor();
    // The code just used is never accepted again: the next time step's code signs in.
    await signIn(page, USER, () => generate({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  });

  it('creates a key whose secret is shown once, and the openai SDK calls with it', async () => {
    await page.goto(`${gateway.url}/keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('laptop');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    userKey = (await page.getByTestId('new-key-secret').textContent())!.trim();
    expect(userKey).toMatch(/^sk-/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'laptop', exact: true }).waitFor();

    // A fresh account has no money yet: the key is refused until the wallet is topped up.
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: userKey, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 429 });
  });

  it('tops up through the payment simulator, and the balance grows without the user doing anything else', async () => {
    await page.goto(`${gateway.url}/wallet`);
    await heading(page, 'Wallet').waitFor();
    await page.getByLabel('Amount (USD)').fill('');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.getByText('Enter an amount in whole dollars.').waitFor();
    await page.getByLabel('Amount (USD)').fill('5');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.waitForURL(/\/c\/pay\//);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/wallet\?payment=success/);
    await page.getByText('$5.00 was added to your balance.').waitFor();
    await expect.poll(async () => (await page.getByTestId('stat-balance').textContent())?.trim()).toBe('$5.00');
    await page.getByRole('table', { name: 'Top-ups' }).getByText('Paid').waitFor();
  });

  it('shows the SDK call on /logs and /usage', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: userKey, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }] });
    expect(answer.choices[0]?.message.content).toBeTruthy();
    await expect.poll(async () => {
      await page.goto(`${gateway.url}/logs`);
      await heading(page, 'Logs').waitFor();
      return page.getByRole('table', { name: 'Calls' }).getByRole('cell', { name: 'laptop', exact: true }).count();
    }, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: /^Details of the call/ }).first().click();
    await page.getByRole('table', { name: 'Call details' }).getByText('gpt-4o-mini').first().waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`${gateway.url}/usage`);
    await expect.poll(async () => Number((await page.getByTestId('stat-requests').textContent())?.replace(/\D/g, '') || 0), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  });

  it('streams an answer in the playground, with its tokens and cost, charged to the wallet under the key "playground"', async () => {
    await page.goto(`${gateway.url}/playground`);
    await heading(page, 'Playground').waitFor();
    await expect.poll(() => page.getByLabel('Model', { exact: true }).first().inputValue()).toBe('gpt-4o-mini');
    await page.getByLabel('System prompt').fill('Be brief.');
    await page.getByLabel('Message').fill('Say something');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(async () => (await page.getByTestId('assistant-answer').last().textContent())?.length ?? 0).toBeGreaterThan(0);
    await expect.poll(async () => (await page.getByTestId('answer-meter').last().textContent()) ?? '', { timeout: 10_000 }).toMatch(/tokens in, .* out · \$/);
    const rows = await gateway.database.db.selectFrom('usage_logs').select(['key_name', 'stream', 'cost_micros']).where('key_name', '=', 'playground').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => Number(row.stream) === 1 && Number(row.cost_micros) > 0)).toBe(true);
  });

  it('lets an admin create a channel and a price that a user key uses at once', async () => {
    const admin = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const adminPage = await admin.newPage();
    await signIn(adminPage, ADMIN);
    await adminPage.goto(`${gateway.url}/admin/channels`);
    await adminPage.getByRole('button', { name: 'Create channel' }).click();
    let dialog = adminPage.getByRole('dialog');
    await dialog.getByLabel('Name').fill('second');
    await dialog.getByLabel('Base URL').fill(upstream.url);
    await dialog.getByLabel('Upstream API key').fill(UPSTREAM_KEY);
    await dialog.getByLabel('Models').fill('gpt-4o');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await adminPage.getByRole('cell', { name: 'second', exact: true }).waitFor();

    await adminPage.goto(`${gateway.url}/admin/models`);
    await adminPage.getByRole('button', { name: 'Add model' }).click();
    dialog = adminPage.getByRole('dialog');
    await dialog.getByLabel('Model id').fill('gpt-4o');
    await dialog.getByLabel('Input per 1M tokens (USD)', { exact: true }).fill('2.5');
    await dialog.getByLabel('Output per 1M tokens (USD)', { exact: true }).fill('10');
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await adminPage.getByRole('cell', { name: 'gpt-4o', exact: true }).waitFor();

    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: userKey, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBeTruthy();

    await adminPage.goto(`${gateway.url}/admin/audit`);
    await adminPage.getByRole('table', { name: 'Audit log' }).getByText('channel.create').first().waitFor();
    await admin.close();
  });

  const PAGES = ['/', '/keys', '/playground', '/logs', '/usage', '/wallet', '/settings'];

  it('meets WCAG AA contrast on the signed-in pages, light and dark, and fits a 375 px phone', { timeout: 240_000 }, async () => {
    const state = await user.storageState();
    for (const path of PAGES) {
      for (const scheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme, storageState: state });
        const view = await context.newPage();
        await view.goto(`${gateway.url}${path}`);
        await view.getByRole('heading', { level: 1 }).waitFor();
        await view.waitForLoadState('networkidle');
        const problems = await contrastProblems(view);
        expect(problems, `${path} (${scheme}): ${JSON.stringify(problems)}`).toEqual([]);
        await context.close();
      }
      // At 375 px the page never scrolls sideways (wide tables scroll inside their own box).
      const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, storageState: state });
      const view = await phone.newPage();
      await view.goto(`${gateway.url}${path}`);
      await view.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await view.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} at 375 px`).toBeLessThanOrEqual(0);
      await phone.close();
    }
  });

  it('writes screenshots of every page, desktop and phone, light and dark', { timeout: 300_000 }, async () => {
    const state = await user.storageState();
    for (const path of PAGES) {
      const files = await screenshotEverywhere(browser, `${gateway.url}${path}`, path === '/' ? 'overview' : path.slice(1), async (view) => {
        await view.getByRole('heading', { level: 1 }).waitFor();
      }, state);
      expect(files).toHaveLength(4);
    }
    const admin = await browser.newContext();
    const adminPage = await admin.newPage();
    await signIn(adminPage, ADMIN);
    const adminState = await admin.storageState();
    await admin.close();
    for (const section of ['users', 'channels', 'models', 'settings']) {
      await screenshotEverywhere(browser, `${gateway.url}/admin/${section}`, `admin-${section}`, async (view) => {
        await view.getByRole('heading', { level: 1, name: 'Administration' }).waitFor();
      }, adminState);
    }
  });

  it('leads to sign-in when the session ends while a page is open, and back to that page after', async () => {
    await page.goto(`${gateway.url}/keys`);
    await heading(page, 'Keys').waitFor();
    // Every session of the user ends elsewhere (a password reset, a revoke on another device).
    await gateway.database.db.deleteFrom('sessions').execute();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('after-expiry');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(/\/login\?next=%2Fkeys/);
    await page.getByLabel(/^Email/).fill(USER.email);
    await page.getByLabel(/^Password/).fill(USER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Code').fill(recoveryCodes[0]!.trim());
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading(page, 'Keys').waitFor();
    expect(new URL(page.url()).pathname).toBe('/keys');
  });
});
