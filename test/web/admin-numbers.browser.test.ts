// Every number an operator or a user types is judged, never rewritten (issue 31, item 2): in Debian's
// Chromium against a real gateway, each refused number shows what is wrong next to its field, and the API,
// read back, proves nothing changed (no code, no price, no ratio, no payment, no setting). The server
// refuses the same numbers itself with a 400 naming the field (it is the source of truth), and unknown
// group names too. A large batch of codes asks first.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startStripeSimulator, type StripeSimulator } from '../simulators/stripe-simulator.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const ADMIN = { email: 'numbers-root@example.com', password: 'numbers root password 1' };
let stripe: StripeSimulator;
let gateway: TestGateway;
let browser: Browser;
let page: Page;
let admin: ApiClient;

beforeAll(async () => {
  stripe = await startStripeSimulator({ secretKey: 'sk_test_numbers', webhookSecret: 'whsec_numbers' });
  gateway = await startTestGateway({
    groups: [{ name: 'vip', ratio: 0.5 }],
    models: [{ id: 'priced-model', input_per_mtok: 2, output_per_mtok: 8 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }],
  }, { env: { STRIPE_SECRET_KEY: 'sk_test_numbers', STRIPE_WEBHOOK_SECRET: 'whsec_numbers', STRIPE_API_BASE: stripe.url } });
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
  await stripe?.close();
});

/** Types the value, presses the button, and expects the message next to the field (and nothing sent). */
async function refuse(scope: Locator | Page, field: string, value: string, submit: string, message: string) {
  const input = scope.getByLabel(field, { exact: true });
  await input.fill(value);
  await scope.getByRole('button', { name: submit, exact: true }).click();
  await scope.getByText(message, { exact: true }).waitFor();
  // What was typed is still there, as typed (a prefix such as $ aside): not clamped, not rounded.
  expect((await input.inputValue()).replace('$', '')).toBe(value);
}

const codesNow = async () => (await admin.get('/api/admin/redemption-codes?limit=200')).body.data as unknown[];
const auditActions = async () => ((await admin.get('/api/admin/audit?limit=500')).body.data as Array<{ action: string }>).map((row) => row.action);

describe('numbers are judged, never rewritten', { timeout: 60_000 }, () => {
  it('redemption codes: a batch past 1,000, a negative or zero worth, fractions of a cent; a large batch asks first', async () => {
    await page.goto(`${gateway.url}/admin/payments`);
    await refuse(page, 'How many', '5000', 'Create codes', 'Must be at most 1,000.');
    await page.getByLabel('How many', { exact: true }).fill('1');
    await refuse(page, 'Worth (USD each)', '-5', 'Create codes', 'Must be more than $0.00.');
    await refuse(page, 'Worth (USD each)', '0', 'Create codes', 'Must be more than $0.00.');
    await refuse(page, 'Worth (USD each)', '0.005', 'Create codes', 'Use whole cents (at most 2 decimals).');
    await page.getByLabel('Worth (USD each)', { exact: true }).fill('5');
    await refuse(page, 'How many', '2.5', 'Create codes', 'Enter a whole number.');
    expect(await codesNow()).toEqual([]);

    await page.getByLabel('How many', { exact: true }).fill('150');
    await page.getByRole('button', { name: 'Create codes', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Create this many codes?' });
    await confirm.getByText('150 codes worth $5.00 each: $750.00 in all').waitFor();
    await page.waitForTimeout(300); // the modal's entrance, for the picture
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-codes-confirm-desktop-light.png') });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-codes-confirm-phone-light.png') });
    await page.setViewportSize(VIEWPORTS.desktop);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await codesNow()).toEqual([]);
    expect(await auditActions()).not.toContain('redemption_codes.create');

    // The server refuses the same numbers, naming the field.
    for (const [body, param] of [
      [{ count: 5000, amount_usd: 1 }, 'count'], [{ count: 2.5, amount_usd: 1 }, 'count'], [{ count: 1, amount_usd: -5 }, 'amount_usd'],
      [{ count: 1, amount_usd: 0 }, 'amount_usd'], [{ count: 1, amount_usd: 0.005 }, 'amount_usd'], [{ count: 1, amount_usd: 1e20 }, 'amount_usd'],
    ] as const) {
      const answer = await admin.post('/api/admin/redemption-codes', body);
      expect({ body, status: answer.status, param: answer.body.error?.param }).toEqual({ body, status: 400, param });
    }
    expect(await codesNow()).toEqual([]);
  });

  it('group ratio: negative and zero are refused (no free groups), as are absurd and inexact ratios', async () => {
    await page.goto(`${gateway.url}/admin/groups`);
    await page.getByRole('row').filter({ hasText: 'vip' }).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await refuse(dialog, 'Price ratio', '-1', 'Save group', 'Must be more than 0.');
    await refuse(dialog, 'Price ratio', '0', 'Save group', 'Must be more than 0.');
    await refuse(dialog, 'Price ratio', '1000', 'Save group', 'Must be at most 100.');
    await refuse(dialog, 'Price ratio', '0.1234567', 'Save group', 'Use at most 6 decimals.');
    await refuse(dialog, 'RPM limit', '0', 'Save group', 'Must be at least 1.');
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-group-refused-phone-light.png') });
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-group-refused-desktop-light.png') });
    const vip = () => admin.get('/api/admin/groups').then((answer) => (answer.body.data as Array<{ name: string }>).find((group) => group.name === 'vip'));
    expect(await vip()).toMatchObject({ ratio: 0.5, rpm_limit: null });
    for (const ratio of [-1, 0, 1000, 0.1234567]) {
      const answer = await admin.put('/api/admin/groups', { name: 'vip', ratio });
      expect({ ratio, status: answer.status, param: answer.body.error?.param }).toEqual({ ratio, status: 400, param: 'ratio' });
    }
    expect(await vip()).toMatchObject({ ratio: 0.5 });
    await dialog.getByLabel('Price ratio', { exact: true }).fill('0.75');
    await dialog.getByLabel('RPM limit', { exact: true }).fill('');
    await dialog.getByRole('button', { name: 'Save group' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await vip()).toMatchObject({ ratio: 0.75 });
  });

  it('model prices: negative, absurd ($1e20 per million) and sub-micro-dollar prices are refused', async () => {
    await page.goto(`${gateway.url}/admin/models`);
    await page.getByRole('row').filter({ hasText: 'priced-model' }).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await refuse(dialog, 'Input per 1M tokens (USD)', '-5', 'Save model', 'Must be at least $0.00.');
    await refuse(dialog, 'Input per 1M tokens (USD)', '100000000000000000000', 'Save model', 'Must be at most $10,000.00.');
    await refuse(dialog, 'Output per 1M tokens (USD)', '0.0000001', 'Save model', 'Use at most 6 decimals.');
    const priced = () => admin.get('/api/admin/models').then((answer) => (answer.body.data as Array<{ id: string }>).find((model) => model.id === 'priced-model'));
    expect(await priced()).toMatchObject({ input_per_mtok: 2, output_per_mtok: 8 });
    for (const [field, value] of [['input_per_mtok', -5], ['input_per_mtok', 1e20], ['output_per_mtok', 0.0000001], ['per_request', 10_001]] as const) {
      const answer = await admin.put('/api/admin/models', { id: 'priced-model', input_per_mtok: 2, output_per_mtok: 8, [field]: value });
      expect({ field, value, status: answer.status, param: answer.body.error?.param }).toEqual({ field, value, status: 400, param: field });
    }
    const image = await admin.put('/api/admin/models', { id: 'priced-model', per_image: { '1024x1024': 1e9 } });
    expect(image.body.error?.param).toBe('per_image.1024x1024');
    expect(await priced()).toMatchObject({ input_per_mtok: 2, output_per_mtok: 8 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('top-up: cents, zero, negative and past the largest are refused, and no payment starts', async () => {
    await page.goto(`${gateway.url}/wallet`);
    for (const [value, message] of [['2.5', 'Top-ups are in whole dollars: no cents.'], ['0', 'The smallest top-up is $1.'], ['-5', 'The smallest top-up is $1.'], ['99999999', 'The largest top-up is $10,000.']]) {
      await refuse(page, 'Amount (USD)', value!, 'Top up', message!);
    }
    expect(page.url()).toBe(`${gateway.url}/wallet`);
    expect((await admin.get('/api/wallet/payments')).body.data).toEqual([]);
    expect(stripe.sessions.size).toBe(0);
    for (const amount of [2.5, 0, -5, 99_999_999, 10_001]) {
      const answer = await admin.post('/api/wallet/topup', { amount_usd: amount });
      expect({ amount, status: answer.status, param: answer.body.error?.param }).toEqual({ amount, status: 400, param: 'amount_usd' });
    }
    expect(stripe.sessions.size).toBe(0);
  });

  it('largest top-up: what is typed before the stored value arrives is kept, not overwritten by it', async () => {
    // The stored value is held back until the operator has typed: the field used to be overwritten by
    // the late answer, and the form then saved (or judged) the old value without a word.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/api/wallet/topup', async (route) => { await held; await route.continue(); });
    await page.goto(`${gateway.url}/admin/settings`);
    const input = page.getByLabel('Largest top-up (USD)', { exact: true });
    await input.fill('0');
    const answered = page.waitForResponse((answer) => answer.url().endsWith('/api/wallet/topup'));
    release();
    await answered;
    await page.unroute('**/api/wallet/topup');
    await page.getByRole('button', { name: 'Save largest top-up', exact: true }).click();
    await page.getByText('Must be at least $1.00.', { exact: true }).waitFor();
    expect(await input.inputValue()).toBe('0');
  });

  it('largest top-up: zero, cents and past a million are refused and the setting stays', async () => {
    await page.goto(`${gateway.url}/admin/settings`);
    // The stored value first (the field follows it until typed in).
    await expect.poll(() => page.getByLabel('Largest top-up (USD)', { exact: true }).inputValue()).toMatch(/^\$?10,?000$/);
    await refuse(page, 'Largest top-up (USD)', '0', 'Save largest top-up', 'Must be at least $1.00.');
    await refuse(page, 'Largest top-up (USD)', '2.5', 'Save largest top-up', 'Enter a whole number.');
    await refuse(page, 'Largest top-up (USD)', '2000000', 'Save largest top-up', 'Must be at most $1,000,000.00.');
    for (const value of [0, 2.5, 2_000_000]) expect((await admin.put('/api/admin/payments/settings', { max_topup_usd: value })).body.error?.param).toBe('max_topup_usd');
    expect((await admin.get('/api/wallet/topup')).body.max_usd).toBe(10_000);
    expect(await auditActions()).not.toContain('settings.max_topup');
    await page.getByLabel('Largest top-up (USD)', { exact: true }).fill('500');
    await page.getByRole('button', { name: 'Save largest top-up' }).click();
    await expect.poll(async () => (await admin.get('/api/wallet/topup')).body.max_usd).toBe(500);
    expect(await auditActions()).toContain('settings.max_topup');
  });

  it('alerts: a negative or fractional-cent threshold and 99,999 expiry days are refused', async () => {
    await page.goto(`${gateway.url}/settings`);
    await refuse(page, 'Low-balance alert (USD)', '-5', 'Save notifications', 'Must be at least $0.00.');
    await refuse(page, 'Low-balance alert (USD)', '8.995', 'Save notifications', 'Use whole cents (at most 2 decimals).');
    await page.getByLabel('Low-balance alert (USD)', { exact: true }).fill('');
    await refuse(page, 'Key-expiry warning (days before)', '99999', 'Save notifications', 'Must be at most 365.');
    await refuse(page, 'Key-expiry warning (days before)', '0', 'Save notifications', 'Must be at least 1.');
    const notifications = async () => (await admin.get('/api/me')).body.settings.notifications;
    expect(await notifications()).toEqual({ low_balance_usd: null, key_expiry_days: null });
    for (const body of [{ low_balance_usd: -5 }, { low_balance_usd: 8.995 }, { key_expiry_days: 99_999 }, { key_expiry_days: 1.5 }]) {
      expect((await admin.put('/api/me/settings', { notifications: body })).status).toBe(400);
    }
    expect(await notifications()).toEqual({ low_balance_usd: null, key_expiry_days: null });
  });

  it('unknown group names are refused for channels, keys and self-service groups, and the form says so', async () => {
    await page.goto(`${gateway.url}/admin/channels`);
    await page.getByRole('button', { name: 'Create channel' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('nowhere');
    await dialog.getByLabel('Base URL').fill('http://127.0.0.1:9');
    await dialog.getByLabel('Upstream API key').fill('sk-anything');
    await dialog.getByLabel('Models').fill('priced-model');
    await dialog.getByLabel('Groups').fill('default, no-such-group');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByText("Invalid value for 'groups': there is no group named 'no-such-group'. Create it under Groups first.").waitFor();
    expect((await admin.get('/api/admin/channels')).body.data).toEqual([]);
    expect((await admin.put('/api/admin/settings', { self_service_groups: ['default', 'no-such-group'] })).body.error?.param).toBe('self_service_groups');
    expect((await admin.get('/api/admin/settings')).body.self_service_groups).toEqual(['default']);
    expect((await admin.post('/api/admin/keys', { user: 'root', name: 'k', group: 'no-such-group' })).body.error?.param).toBe('group');
    expect((await admin.get('/api/admin/keys')).body.data).toEqual([]);
  });
});
