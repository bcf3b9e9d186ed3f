// Mail: .eml files when no SMTP_URL is set; a mail server that refuses mail neither fails nor slows the
// request, and the outbox retries until it is delivered. Registration settings: closed and domain lists.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, decodeQuotedPrintable, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { setSetting } from '../../src/db/repositories/settings.ts';

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
    gateway = await startTestGateway({}, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100' } });
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
});
