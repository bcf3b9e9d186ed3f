// Redemption codes an operator can track and take back (issue 31, item 1): in Debian's Chromium against a
// real gateway, a batch of 150 asks first, is audited (never the codes), downloads as CSV at once (the
// only moment the codes exist outside their hashes), lists 50 a page with who redeemed each, and an unused
// code is revoked after a confirmation: the API then refuses it like an unknown one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const ADMIN = { email: 'codes-root@example.com', password: 'codes root password 1' };
const USER = { email: 'codes-user@example.com', password: 'codes user password 1' };
let gateway: TestGateway;
let browser: Browser;
let page: Page;
let admin: ApiClient;
let user: ApiClient;
let codes: string[] = [];

beforeAll(async () => {
  gateway = await startTestGateway({
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'cody', email: USER.email, password: USER.password }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  user = new ApiClient(gateway.url);
  expect((await user.post('/api/auth/login', USER)).status).toBe(200);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: VIEWPORTS.desktop, acceptDownloads: true })).newPage();
  page.setDefaultTimeout(10_000);
  await signInThroughForm(page, gateway.url, ADMIN);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

interface CodeRow { id: number; prefix: string; state: string; redeemed_by_email: string | null }
const codeRows = (table: Page) => table.getByRole('table', { name: 'Redemption codes' }).getByRole('row');

describe('redemption codes in the admin page', { timeout: 60_000 }, () => {
  it('creates 150 codes after a confirmation, audited without the codes, and downloads them as CSV', async () => {
    await page.goto(`${gateway.url}/admin/payments`);
    await page.getByLabel('How many', { exact: true }).fill('150');
    await page.getByLabel('Worth (USD each)', { exact: true }).fill('2.50');
    await page.getByLabel('Note', { exact: true }).fill('=meetup, spring');
    await page.getByRole('button', { name: 'Create codes', exact: true }).click();
    await page.getByRole('dialog', { name: 'Create this many codes?' }).getByRole('button', { name: 'Create 150 codes' }).click();
    await page.getByText('150 new codes worth $2.50 each: shown only now.').waitFor();
    codes = ((await page.getByLabel('New redemption codes').textContent()) ?? '').split('\n').filter(Boolean);
    expect(codes).toHaveLength(150);
    expect(new Set(codes).size).toBe(150);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^redemption-codes-.*\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('code,amount_usd,note');
    // The note would be a formula in a spreadsheet: it is kept as text, quoted for its comma.
    expect(csv.slice(1)).toEqual(codes.map((code) => `${code},2.50,"'=meetup, spring"`));

    const audit = await admin.get('/api/admin/audit?limit=50');
    const created = (audit.body.data as Array<{ action: string; actor: string; after: Record<string, unknown> }>).find((row) => row.action === 'redemption_codes.create')!;
    expect(created).toMatchObject({ actor: ADMIN.email, after: { count: 150, amount_usd: 2.5, total_usd: 375, note: '=meetup, spring' } });
    for (const code of codes.slice(0, 20)) expect(audit.text).not.toContain(code.slice(3));
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-codes-created-desktop-light.png') });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-codes-created-phone-light.png') });
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('lists every code, 50 a page (no cap at 200), with who redeemed one', async () => {
    expect((await user.post('/api/wallet/redeem', { code: codes[0] })).status).toBe(200);
    await page.reload();
    await expect.poll(async () => codeRows(page).count(), { timeout: 10_000 }).toBe(51);
    const seen = new Set<string>();
    const collect = async () => { for (const text of await page.getByRole('table', { name: 'Redemption codes' }).locator('tbody td:first-child').allTextContents()) seen.add(text); };
    await collect();
    for (let pageNumber = 2; pageNumber <= 3; pageNumber++) {
      const first = await page.getByRole('table', { name: 'Redemption codes' }).locator('tbody td:first-child').first().textContent();
      await page.getByRole('button', { name: 'Older' }).click();
      await expect.poll(async () => page.getByRole('table', { name: 'Redemption codes' }).locator('tbody td:first-child').first().textContent(), { timeout: 10_000 }).not.toBe(first);
      await collect();
    }
    expect(seen.size).toBe(150);
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    // The oldest page holds the first code of the batch, redeemed by the user, named by e-mail.
    const prefix = codes[0]!.slice(0, 7);
    await page.getByRole('row').filter({ hasText: `${prefix}…` }).getByText(`by ${USER.email}`).waitFor();

    // The API pages past 200 too: limit 200 and a cursor reach every code.
    const firstPage = await admin.get('/api/admin/redemption-codes?limit=100');
    const secondPage = await admin.get(`/api/admin/redemption-codes?limit=100&cursor=${firstPage.body.next_cursor}`);
    expect([...firstPage.body.data, ...secondPage.body.data]).toHaveLength(150);
    expect(secondPage.body.next_cursor).toBeNull();
    expect((await admin.get('/api/admin/redemption-codes?state=redeemed')).body.data).toMatchObject([{ state: 'redeemed', redeemed_by_email: USER.email }]);
  });

  it('revokes an unused code after a confirmation: it is refused from then on', async () => {
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.getByRole('button', { name: 'Newer' }).click();
    const prefix = codes[149]!.slice(0, 7);
    const row = page.getByRole('row').filter({ hasText: `${prefix}…` });
    await row.getByRole('button', { name: `Revoke ${prefix}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this code?' });
    await confirm.getByText(`${prefix}… worth $2.50 will be refused from now on.`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    const byPrefix = async () => ((await admin.get('/api/admin/redemption-codes?limit=200')).body.data as CodeRow[]).find((code) => code.prefix === prefix)!;
    expect((await byPrefix()).state).toBe('unused');
    await row.getByRole('button', { name: `Revoke ${prefix}` }).click();
    await confirm.getByRole('button', { name: 'Revoke code' }).click();
    await row.getByText(/^Revoked /).waitFor();
    expect((await byPrefix()).state).toBe('revoked');

    const redeemed = await user.post('/api/wallet/redeem', { code: codes[149] });
    expect(redeemed.status).toBe(400);
    expect(redeemed.body.error.code).toBe('invalid_redemption_code');
    const revokedRow = await byPrefix();
    expect((await admin.post(`/api/admin/redemption-codes/${revokedRow.id}/revoke`)).status).toBe(409);
    const used = ((await admin.get('/api/admin/redemption-codes?state=redeemed')).body.data as CodeRow[])[0]!;
    const again = await admin.post(`/api/admin/redemption-codes/${used.id}/revoke`);
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'code_redeemed' });
    expect((await admin.post('/api/admin/redemption-codes/999999/revoke')).status).toBe(404);
    expect((await user.post(`/api/admin/redemption-codes/${revokedRow.id}/revoke`)).status).toBe(403);
    const audit = (await admin.get('/api/admin/audit?limit=50')).body.data as Array<{ action: string; target: string }>;
    expect(audit.filter((entry) => entry.action === 'redemption_code.revoke')).toEqual([expect.objectContaining({ target: `redemption_code:${revokedRow.id}` })]);
  });
});
