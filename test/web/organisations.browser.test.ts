// Organisations in Chromium against a real gateway (issue 34): the owner creates one and invites by e-mail;
// the invitee follows the link from the in-process SMTP server, signs in and joins; the owner changes her
// role and cap; a billing member redeems a code into the shared wallet and makes a key that charges it; the
// ownership is handed over and a member leaves, each only after a dialog says what it does.
// Desktop and phone screenshots of each page.
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const OWNER = { email: 'olive@example.com', password: 'olive password 123' };
const BEA = { email: 'bea@example.com', password: 'bea password 1234' };
const ROOT = { email: 'org-root@example.com', password: 'org root password 1' };
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let gateway: TestGateway;
let browser: Browser;
let owner: Page;
let bea: Page;
let orgId: number;

async function screenshots(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop-light.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.phone);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone-light.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.desktop);
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-upstream-org-browser' });
  smtp = await startTestSmtp();
  gateway = await startTestGateway({
    channels: [{ name: 'sim', type: 'openai', base_url: upstream.url, api_key: 'sk-upstream-org-browser', models: ['priced'] }],
    models: [{ id: 'priced', input_per_mtok: 1, output_per_mtok: 1 }],
    groups: [{ name: 'default', ratio: 1 }, { name: 'premium', ratio: 2 }],
    users: [
      { name: 'root', email: ROOT.email, password: ROOT.password, role: 'admin' },
      { name: 'Olive', email: OWNER.email, password: OWNER.password },
      { name: 'Bea', email: BEA.email, password: BEA.password },
    ],
  }, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
  browser = await launchBrowser();
  owner = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  bea = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  owner.setDefaultTimeout(10_000);
  bea.setDefaultTimeout(10_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await smtp?.close();
  await upstream?.close();
});

describe('organisations in the dashboard', { timeout: 60_000 }, () => {
  it('creates an organisation from the sidebar and invites by e-mail', async () => {
    await signInThroughForm(owner, gateway.url, OWNER);
    await owner.getByRole('link', { name: 'Organisations' }).first().click();
    await owner.getByRole('heading', { level: 1, name: 'Organisations' }).waitFor();
    await owner.getByLabel('Name', { exact: true }).fill('Acme');
    await owner.getByRole('button', { name: 'Create an organisation' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Acme' }).waitFor();
    orgId = Number(new URL(owner.url()).pathname.split('/').pop());
    expect(orgId).toBeGreaterThan(0);
    await owner.getByLabel('E-mail address').fill(BEA.email);
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await owner.getByRole('table', { name: 'Pending invitations' }).getByRole('cell', { name: BEA.email }).waitFor();
    await screenshots(owner, 'organisation-members');
  });

  it('joins through the mailed link after signing in, and the owner changes the role and the cap', async () => {
    const mail = await smtp.waitFor(BEA.email, /Join Acme/);
    // The mail's link starts with PUBLIC_URL (here http://localhost:<port>); the browser stays on the test's origin.
    const link = new URL(linkIn(mail, '/orgs/join?token='));
    expect(link.pathname).toBe('/orgs/join');
    await bea.goto(`${gateway.url}${link.pathname}${link.search}`);
    // Signed out: the sign-in page, then back to the invitation.
    await bea.getByLabel(/^Email/).fill(BEA.email);
    await bea.getByLabel(/^Password/).fill(BEA.password);
    await bea.getByRole('button', { name: 'Sign in', exact: true }).click();
    await bea.getByRole('heading', { level: 1, name: 'Join an organisation' }).waitFor();
    await bea.getByRole('button', { name: 'Join the organisation' }).click();
    await bea.getByRole('heading', { level: 1, name: 'Acme' }).waitFor();
    await bea.getByText('Member', { exact: true }).first().waitFor();

    await owner.reload();
    await owner.getByLabel('Role of Bea', { exact: true }).first().click();
    await owner.getByRole('option', { name: 'Billing' }).click();
    await owner.getByText('Saved.').waitFor();
    await owner.getByLabel('Monthly cap of Bea').fill('25');
    await owner.getByRole('row', { name: /Bea/ }).getByRole('button', { name: 'Save' }).click();
    const members = new ApiClient(gateway.url);
    await members.post('/api/auth/login', OWNER);
    await expect.poll(async () => ((await members.get(`/api/orgs/${orgId}/members`)).body.data as { name: string; role: string; monthly_cap_usd: number | null }[])
      .find((member) => member.name === 'Bea')).toMatchObject({ role: 'billing', monthly_cap_usd: 25 });
    expect((await members.get(`/api/orgs/${orgId}/invites`)).body.data).toEqual([]);
  });

  it('lets the billing member redeem a code into the shared wallet and make a key that charges it', async () => {
    const root = new ApiClient(gateway.url);
    await root.post('/api/auth/login', ROOT);
    const code = (await root.post('/api/admin/redemption-codes', { count: 1, amount_usd: 3 })).body.codes[0] as string;
    await bea.goto(`${gateway.url}/orgs/${orgId}?tab=wallet`);
    await bea.getByRole('textbox', { name: 'Redemption code' }).fill(code);
    await bea.getByRole('button', { name: 'Redeem' }).click();
    await bea.getByText('$3.00 added to the organisation’s wallet.').waitFor();
    await bea.getByText('$3.00', { exact: true }).first().waitFor();
    await screenshots(bea, 'organisation-wallet');

    await bea.goto(`${gateway.url}/orgs/${orgId}?tab=keys`);
    await bea.getByLabel('Key name').fill('bea-ci');
    await bea.getByRole('button', { name: 'Create a key' }).click();
    const secret = (await bea.getByTestId('org-key-secret').textContent())!.trim();
    expect(secret).toMatch(/^sk-/);
    await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 }).chat.completions.create({ model: 'priced', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    await gateway.recorder.flush();
    await bea.reload();
    await bea.getByRole('table', { name: 'Keys' }).getByRole('cell', { name: 'bea-ci' }).waitFor();
    await screenshots(bea, 'organisation-keys');
    // Her call is in the organisation's calls (a billing member sees those of her own keys).
    await bea.goto(`${gateway.url}/orgs/${orgId}?tab=logs`);
    await bea.getByRole('table', { name: 'Calls' }).getByRole('cell', { name: 'bea-ci', exact: true }).waitFor();
    // The charge went to the organisation's wallet, not to Bea's.
    const beaApi = new ApiClient(gateway.url);
    await beaApi.post('/api/auth/login', BEA);
    expect((await beaApi.get(`/api/orgs/${orgId}/wallet`)).body.balance_usd).toBeLessThan(3);
    expect((await beaApi.get('/api/wallet')).body.balance_usd).toBe(0);
  });

  it("shows the administrator every organisation and sets its channel group", async () => {
    const admin = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
    admin.setDefaultTimeout(10_000);
    await signInThroughForm(admin, gateway.url, ROOT);
    await admin.goto(`${gateway.url}/admin/organisations`);
    await admin.getByRole('table', { name: 'Organisations' }).getByRole('cell', { name: 'Acme' }).waitFor();
    await admin.getByLabel('Channel group of Acme', { exact: true }).first().click();
    await admin.getByRole('option', { name: 'premium' }).click();
    await admin.getByText('Channel group saved: the organisation’s keys use it from now on.').waitFor();
    await screenshots(admin, 'admin-organisations');
    const beaApi = new ApiClient(gateway.url);
    await beaApi.post('/api/auth/login', BEA);
    expect((await beaApi.get(`/api/orgs/${orgId}`)).body.group).toBe('premium');
    expect(((await beaApi.get(`/api/orgs/${orgId}/keys`)).body.data as { group: string }[]).map((key) => key.group)).toEqual(['premium']);
  });

  it('asks before handing over the ownership and before leaving; Cancel changes nothing', async () => {
    const olive = new ApiClient(gateway.url);
    await olive.post('/api/auth/login', OWNER);
    const roles = async () => Object.fromEntries(((await olive.get(`/api/orgs/${orgId}/members`)).body.data as { name: string; role: string }[]).map((member) => [member.name, member.role]));
    await owner.goto(`${gateway.url}/orgs/${orgId}`);
    const beaRow = owner.getByRole('row', { name: /Bea/ });
    await beaRow.getByRole('button', { name: 'Make owner' }).click();
    const handOver = owner.getByRole('dialog', { name: 'Make Bea the owner?' });
    await handOver.getByText('Bea becomes the owner of Acme.', { exact: false }).waitFor();
    await screenshots(owner, 'organisation-handover-confirm');
    await handOver.getByRole('button', { name: 'Cancel' }).click();
    await handOver.waitFor({ state: 'hidden' });
    expect(await roles()).toEqual({ Olive: 'owner', Bea: 'billing' });

    await beaRow.getByRole('button', { name: 'Make owner' }).click();
    await handOver.getByRole('button', { name: 'Make owner' }).click();
    await expect.poll(roles).toEqual({ Olive: 'admin', Bea: 'owner' });
    // Olive, an admin now, no longer hands the ownership over; she leaves after saying so.
    await owner.getByRole('row', { name: /Bea/ }).getByRole('button', { name: 'Make owner' }).waitFor({ state: 'detached' });
    await owner.getByRole('row', { name: /Olive/ }).getByRole('button', { name: 'Leave' }).click();
    const leave = owner.getByRole('dialog', { name: 'Leave Acme?' });
    await leave.getByRole('button', { name: 'Leave' }).click();
    await owner.waitForURL(`${gateway.url}/orgs`);
    const bea = new ApiClient(gateway.url);
    await bea.post('/api/auth/login', BEA);
    expect(((await bea.get(`/api/orgs/${orgId}/members`)).body.data as { name: string }[]).map((member) => member.name)).toEqual(['Bea']);
  });
});
