// Mail: .eml files when no SMTP_URL is set; a mail server that refuses mail neither fails nor slows the
// request, and the outbox retries until it is delivered. Registration settings: closed and domain lists.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, decodeQuotedPrintable, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { setSetting } from '../../src/db/repositories/settings.ts';
import { grantToWallet } from '../../src/admin/admin-wallets.ts';
import { linkIn } from '../helpers/test-smtp.ts';

const PASSWORD = 'correct horse battery';

describe('mail without SMTP_URL', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({}, { env: { MAIL_POLL_MS: '100' } });
  });
  afterAll(async () => gateway?.dispose());

  it('writes each mail as an .eml file under DATA_DIR/mail, links starting with http://localhost:$PORT', async () => {
    const client = new ApiClient(gateway.url);
    expect((await client.post('/api/auth/signup', { email: 'file@example.com', password: PASSWORD })).status).toBe(202);
    const folder = join(gateway.dir, 'mail');
    let files: string[] = [];
    for (let i = 0; i < 100 && files.length === 0; i++) {
      files = await readdir(folder).catch(() => []);
      if (files.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/file@example\.com\.eml$/);
    const eml = decodeQuotedPrintable(await readFile(join(folder, files[0]!), 'utf8'));
    const port = new URL(gateway.url).port;
    expect(eml).toContain(`http://localhost:${port}/verify-email?token=`);
    expect(eml).toMatch(/To: file@example\.com/);
  });
});

describe('mail through an SMTP server that is down for a while', () => {
  let smtp: TestSmtp;
  let gateway: TestGateway;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    gateway = await startTestGateway({}, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100', NOTIFY_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await gateway?.dispose();
    await smtp?.close();
  });

  it('answers at once and delivers the mail once the server accepts again', async () => {
    smtp.setRefusing(true);
    const client = new ApiClient(gateway.url);
    expect((await client.post('/api/auth/signup', { email: 'retry@example.com', password: PASSWORD })).status).toBe(202);
    const db = gateway.database.db;
    for (let i = 0; i < 100; i++) {
      const row = await db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'retry@example.com').executeTakeFirst();
      if (row && row.attempts > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const failedOnce = await db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'retry@example.com').executeTakeFirstOrThrow();
    expect(failedOnce).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failedOnce.last_error).toMatch(/451|unavailable/i);
    smtp.setRefusing(false);
    const mail = await smtp.waitFor('retry@example.com', /Confirm your e-mail/, 0, 15_000);
    expect(mail.decoded).toContain('/verify-email?token=');
    // The row is marked sent right after the server's answer.
    let status = '';
    for (let i = 0; i < 100 && status !== 'sent'; i++) {
      status = (await db.selectFrom('mail_outbox').select('status').where('to_address', '=', 'retry@example.com').executeTakeFirstOrThrow()).status;
      if (status !== 'sent') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe('sent');
    expect(smtp.mails.filter((m) => m.to.includes('retry@example.com'))).toHaveLength(1);
  });

  it('honours the registration setting: closed, or open to listed domains', async () => {
    const client = new ApiClient(gateway.url);
    await setSetting(gateway.database.db, 'registration', { mode: 'closed', domains: [] });
    const closed = await client.post('/api/auth/signup', { email: 'late@example.com', password: PASSWORD });
    expect(closed.status).toBe(403);
    expect(closed.body.error.code).toBe('registration_closed');
    await setSetting(gateway.database.db, 'registration', { mode: 'domains', domains: ['corp.example'] });
    expect((await client.post('/api/auth/signup', { email: 'late@example.com', password: PASSWORD })).body.error.code).toBe('registration_domain_not_allowed');
    expect((await client.post('/api/auth/signup', { email: 'ok@corp.example', password: PASSWORD })).status).toBe(202);
  });

  it('mails a low-balance alert once per crossing and a key-expiry warning once per key', async () => {
    const client = new ApiClient(gateway.url);
    const email = 'alerts@example.com';
    await setSetting(gateway.database.db, 'registration', { mode: 'open', domains: [] });
    const since = smtp.mails.length;
    await client.post('/api/auth/signup', { email, password: PASSWORD });
    const verify = await smtp.waitFor(email, /Confirm/, since);
    await client.post('/api/auth/verify-email', { token: new URL(linkIn(verify, '/verify-email?token=')).searchParams.get('token') });
    const login = await client.post('/api/auth/login', { email, password: PASSWORD });
    const userId = login.body.user.id as number;
    await grantToWallet(gateway.database.db, gateway.accounting, userId, 2, 'test');
    const key = await client.post('/api/keys', { name: 'soon', expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString() });
    expect(key.status).toBe(201);
    expect((await client.put('/api/me/settings', { notifications: { low_balance_usd: 5, key_expiry_days: 3 } })).status).toBe(200);
    await smtp.waitFor(email, /balance is low/, since);
    await smtp.waitFor(email, /expires soon/, since);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const count = (subject: RegExp) => smtp.mails.slice(since).filter((m) => m.to.includes(email) && subject.test(m.subject)).length;
    expect(count(/balance is low/)).toBe(1);
    expect(count(/expires soon/)).toBe(1);
    // Back above the threshold re-arms the alert; falling below again sends a second one.
    await grantToWallet(gateway.database.db, gateway.accounting, userId, 10, 'top-up');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(count(/balance is low/)).toBe(1);
    await client.put('/api/me/settings', { notifications: { low_balance_usd: 20 } });
    for (let i = 0; i < 50 && count(/balance is low/) < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(count(/balance is low/)).toBe(2);
    expect(count(/expires soon/)).toBe(1);
  });
});

describe('behind https', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ users: [{ name: 'sec', email: 'sec@example.com', password: 'secure password 1' }] }, { env: { PUBLIC_URL: 'https://gw.example.com/' } });
  });
  afterAll(async () => gateway?.dispose());

  it('marks the session cookie Secure when PUBLIC_URL is https, and links use PUBLIC_URL', async () => {
    const response = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'sec@example.com', password: 'secure password 1' }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/; Secure/);
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json() as { servers: { url: string }[] };
    expect(doc.servers[0]!.url).toBe('https://gw.example.com');
  });
});

describe('inbox flooding', () => {
  let smtp: TestSmtp;
  let gateway: TestGateway;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    gateway = await startTestGateway({ users: [{ name: 'victim', email: 'victim@example.com', password: 'victim password 1' }] }, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100' } });
  });
  afterAll(async () => {
    await gateway?.dispose();
    await smtp?.close();
  });

  it('sends at most 10 mails an hour to one address, whatever the public forms are asked', async () => {
    const client = new ApiClient(gateway.url);
    for (let i = 0; i < 15; i++) expect((await client.post('/api/auth/password-reset', { email: 'victim@example.com' })).status).toBe(202);
    await smtp.waitFor('victim@example.com', /Reset/);
    for (let i = 0; i < 100; i++) {
      const pending = await gateway.database.db.selectFrom('mail_outbox').select('id').where('status', '=', 'pending').execute();
      if (pending.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(smtp.mails.filter((m) => m.to.includes('victim@example.com'))).toHaveLength(10);
  });
});
