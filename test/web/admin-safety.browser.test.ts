// Privilege and destructive changes ask first, and the gateway never loses its last administrator (issue
// 31, item 1): in Debian's Chromium against a real gateway, the only administrator cannot demote or
// disable themselves (409 naming the field, shown to them; the API read back proves nothing changed);
// role, status, two-factor reset and model deletion each ask, and Cancel changes nothing; a domain left
// in the hidden field of the registration settings does not block saving another mode.
import { generate } from 'otplib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const ADMIN = { email: 'safety-root@example.com', password: 'safety root password 1' };
const USER = { email: 'safety-user@example.com', password: 'safety user password 1' };
const SECOND = { email: 'safety-second@example.com', password: 'safety second password 1' };
let gateway: TestGateway;
let browser: Browser;
let page: Page;
let admin: ApiClient;

beforeAll(async () => {
  gateway = await startTestGateway({
    models: [{ id: 'doomed-model', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'sam', email: USER.email, password: USER.password }, { name: 'ada', email: SECOND.email, password: SECOND.password }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  // The user turns two-factor on, so an administrator has something to reset.
  const user = new ApiClient(gateway.url);
  expect((await user.post('/api/auth/login', USER)).status).toBe(200);
  const setup = await user.post('/api/me/2fa/setup');
  expect((await user.post('/api/me/2fa/enable', { code: await generate({ secret: setup.body.secret as string }) })).status).toBe(200);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  page.setDefaultTimeout(10_000);
  await signInThroughForm(page, gateway.url, ADMIN);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

interface UserView { id: number; email: string; role: string; status: string; two_factor_enabled: boolean }
const userNamed = async (email: string) => ((await admin.get('/api/admin/users?limit=100')).body.data as UserView[]).find((user) => user.email === email)!;

async function openUserAction(email: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('the last administrator and confirmations', { timeout: 60_000 }, () => {
  it('the only administrator cannot demote or disable themselves: asked first, then refused with the reason', async () => {
    await page.goto(`${gateway.url}/admin/users`);
    await openUserAction(ADMIN.email, 'Make a user');
    const confirm = page.getByRole('dialog', { name: `Make ${ADMIN.email} a user?` });
    await confirm.getByRole('button', { name: 'Make user' }).click();
    await page.getByText('This is the last active administrator: make another user an administrator first, or nobody could administer the gateway.').first().waitFor();
    expect(await userNamed(ADMIN.email)).toMatchObject({ role: 'admin', status: 'active' });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-last-admin-desktop-light.png') });

    await openUserAction(ADMIN.email, 'Disable');
    await page.getByRole('dialog', { name: `Disable ${ADMIN.email}?` }).getByRole('button', { name: 'Disable user' }).click();
    await expect.poll(async () => page.getByText('This is the last active administrator', { exact: false }).count()).toBeGreaterThan(1);
    expect(await userNamed(ADMIN.email)).toMatchObject({ role: 'admin', status: 'active' });

    const self = await userNamed(ADMIN.email);
    for (const [change, param] of [[{ role: 'user' }, 'role'], [{ status: 'disabled' }, 'status']] as const) {
      const answer = await admin.patch(`/api/admin/users/${self.id}`, change);
      expect({ status: answer.status, param: answer.body.error.param, code: answer.body.error.code }).toEqual({ status: 409, param, code: 'last_admin' });
    }
  });

  it('role, status and two-factor reset ask first; Cancel changes nothing', async () => {
    await page.goto(`${gateway.url}/admin/users`);
    const before = await userNamed(USER.email);
    expect(before).toMatchObject({ role: 'user', status: 'active', two_factor_enabled: true });

    await openUserAction(USER.email, 'Make an admin');
    const role = page.getByRole('dialog', { name: `Make ${USER.email} an administrator?` });
    await role.getByText('They can then change every user, channel, price and setting, and move money.', { exact: false }).waitFor();
    await role.getByRole('button', { name: 'Cancel' }).click();
    await openUserAction(USER.email, 'Disable');
    await page.getByRole('dialog', { name: `Disable ${USER.email}?` }).getByRole('button', { name: 'Cancel' }).click();
    await openUserAction(USER.email, 'Reset two-factor');
    const reset = page.getByRole('dialog', { name: `Reset two-factor for ${USER.email}?` });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-reset-2fa-confirm-desktop-light.png') });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-reset-2fa-confirm-phone-light.png') });
    await page.setViewportSize(VIEWPORTS.desktop);
    await reset.getByRole('button', { name: 'Cancel' }).click();
    expect(await userNamed(USER.email)).toMatchObject({ role: 'user', status: 'active', two_factor_enabled: true });

    await openUserAction(USER.email, 'Reset two-factor');
    await reset.getByRole('button', { name: 'Reset two-factor' }).click();
    await expect.poll(async () => (await userNamed(USER.email)).two_factor_enabled).toBe(false);
    await openUserAction(USER.email, 'Disable');
    await page.getByRole('dialog', { name: `Disable ${USER.email}?` }).getByRole('button', { name: 'Disable user' }).click();
    await expect.poll(async () => (await userNamed(USER.email)).status).toBe('disabled');
  });

  it('deleting a model asks first; Cancel keeps it', async () => {
    await page.goto(`${gateway.url}/admin/models`);
    await page.getByRole('button', { name: 'Delete doomed-model' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete doomed-model?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    const ids = async () => ((await admin.get('/api/admin/models')).body.data as Array<{ id: string }>).map((model) => model.id);
    expect(await ids()).toContain('doomed-model');
    await page.getByRole('button', { name: 'Delete doomed-model' }).click();
    await confirm.getByRole('button', { name: 'Delete model' }).click();
    await expect.poll(ids).not.toContain('doomed-model');
  });

  it('a bad domain left in the hidden field does not block saving another registration mode', async () => {
    await page.goto(`${gateway.url}/admin/settings`);
    const registration = page.getByRole('radiogroup', { name: 'Registration' }).or(page.getByLabel('Registration'));
    await registration.getByText('Listed domains').click();
    await page.getByLabel('E-mail domains').fill('example.com\nnot a domain');
    await page.getByRole('button', { name: 'Save registration' }).click();
    await page.getByText("Invalid value for 'registration.domains[1]': not a domain name").waitFor();
    expect((await admin.get('/api/admin/settings')).body.registration).toEqual({ mode: 'open', domains: [] });

    await registration.getByText('Closed').click();
    await page.getByRole('button', { name: 'Save registration' }).click();
    await page.getByText('Registration settings saved.').waitFor();
    expect((await admin.get('/api/admin/settings')).body.registration).toEqual({ mode: 'closed', domains: [] });
    const signup = await new ApiClient(gateway.url).post('/api/auth/signup', { email: 'late@example.com', password: 'late password 1234' });
    expect(signup.status).toBe(403);
  });

  it('two administrators demoting themselves at the same moment: exactly one of them stays', async () => {
    const second = await userNamed(SECOND.email);
    expect((await admin.patch(`/api/admin/users/${second.id}`, { role: 'admin' })).status).toBe(200);
    const ada = new ApiClient(gateway.url);
    expect((await ada.post('/api/auth/login', SECOND)).status).toBe(200);
    const root = await userNamed(ADMIN.email);
    const answers = await Promise.all([admin.patch(`/api/admin/users/${root.id}`, { role: 'user' }), ada.patch(`/api/admin/users/${second.id}`, { role: 'user' })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const remaining = answers[0]!.status === 409 ? admin : ada;
    const admins = ((await remaining.get('/api/admin/users?limit=100')).body.data as UserView[]).filter((user) => user.role === 'admin' && user.status === 'active');
    expect(admins).toHaveLength(1);
  });
});
