// Mail settings edited at runtime: an administrator points the gateway at another SMTP server (with a
// password) and another From; the next mail goes there, a test mail answers whether it was sent or the SMTP
// error; back to SMTP_URL / MAIL_FROM with null. The SMTP password is in no answer, log line, audit row or
// stored setting.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient, type ApiAnswer } from '../helpers/api-client.ts';

const SMTP_PASSWORD = 'smtp-Pa55word-that-must-never-show';
const WRONG_PASSWORD = 'wrong-Pa55word-also-secret';
let envSmtp: TestSmtp;
let runtimeSmtp: TestSmtp;
let gateway: TestGateway;
let admin: ApiClient;
const logLines: string[] = [];
const answers: string[] = [];
const keep = (answer: ApiAnswer) => {
  answers.push(answer.text);
  return answer;
};

beforeAll(async () => {
  envSmtp = await startTestSmtp();
  runtimeSmtp = await startTestSmtp({ login: { user: 'mailer', password: SMTP_PASSWORD } });
  const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  gateway = await startTestGateway({
    users: [{ name: 'root', email: 'root@example.com', password: 'root password 123', role: 'admin' }],
  }, { env: { SMTP_URL: envSmtp.url, MAIL_FROM: 'Env Sender <env@gateway.test>', MAIL_POLL_MS: '100' }, logger: pino({ level: 'trace' }, sink) });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', { email: 'root@example.com', password: 'root password 123' })).status).toBe(200);
});
afterAll(async () => {
  await gateway?.dispose();
  await envSmtp?.close();
  await runtimeSmtp?.close();
});

const runtimeUrl = (password: string) => `smtp://mailer:${encodeURIComponent(password)}@127.0.0.1:${new URL(runtimeSmtp.url).port}`;

it('starts from SMTP_URL and MAIL_FROM, and a test mail is sent through them at once', async () => {
  const settings = keep(await admin.get('/api/admin/settings'));
  expect(settings.body.mail).toMatchObject({ transport: 'smtp', smtp_url_set: true, smtp_host: new URL(envSmtp.url).host, smtp_source: 'env', from: 'Env Sender <env@gateway.test>', from_source: 'env' });
  const sent = keep(await admin.post('/api/admin/settings/test-mail', { to: 'ops@example.com' }));
  expect(sent.status).toBe(200);
  expect(sent.body).toMatchObject({ sent: true, transport: 'smtp' });
  // Sent before the answer: it is already there.
  expect(envSmtp.mails.some((mail) => mail.to.includes('ops@example.com') && /Test mail/.test(mail.subject))).toBe(true);
});

it('sends the next mail through an SMTP URL and From changed at runtime, the URL write-only', async () => {
  const changed = keep(await admin.put('/api/admin/settings', { mail: { smtp_url: runtimeUrl(SMTP_PASSWORD), from: 'Ops Desk <ops@gateway.test>' } }));
  expect(changed.status).toBe(200);
  expect(changed.body.mail).toMatchObject({ transport: 'smtp', smtp_url_set: true, smtp_host: new URL(runtimeSmtp.url).host, smtp_source: 'runtime', from: 'Ops Desk <ops@gateway.test>', from_source: 'runtime' });
  expect(JSON.stringify(changed.body)).not.toContain('mailer');

  // A mail from the outbox (a sign-up) goes to the new server, from the new address.
  const before = envSmtp.mails.length;
  expect(keep(await new ApiClient(gateway.url).post('/api/auth/signup', { email: 'newcomer@example.com', password: 'newcomer password 1' })).status).toBe(202);
  const welcome = await runtimeSmtp.waitFor('newcomer@example.com', /./);
  expect(welcome.raw).toMatch(/^From: Ops Desk <ops@gateway\.test>/m);
  const tested = keep(await admin.post('/api/admin/settings/test-mail', { to: 'ops@example.com' }));
  expect(tested.body).toMatchObject({ sent: true });
  expect(runtimeSmtp.mails.some((mail) => mail.to.includes('ops@example.com'))).toBe(true);
  expect(envSmtp.mails.length).toBe(before);
});

it('answers a failed test mail with the SMTP error, without the password', async () => {
  keep(await admin.put('/api/admin/settings', { mail: { smtp_url: runtimeUrl(WRONG_PASSWORD) } }));
  const failed = keep(await admin.post('/api/admin/settings/test-mail', { to: 'ops@example.com' }));
  expect(failed.status).toBe(200);
  expect(failed.body.sent).toBe(false);
  expect(failed.body.error).toMatch(/535|Invalid/i);
  expect(failed.text).not.toContain(WRONG_PASSWORD);
});

it('goes back to SMTP_URL and MAIL_FROM with null, refuses bad values in the caller\'s format, and keeps the password out of everything', async () => {
  const reset = keep(await admin.put('/api/admin/settings', { mail: { smtp_url: null, from: null } }));
  expect(reset.body.mail).toMatchObject({ smtp_source: 'env', smtp_host: new URL(envSmtp.url).host, from: 'Env Sender <env@gateway.test>', from_source: 'env' });
  const before = envSmtp.mails.length;
  expect(keep(await admin.post('/api/admin/settings/test-mail', { to: 'back@example.com' })).body.sent).toBe(true);
  expect(envSmtp.mails.length).toBe(before + 1);

  const bad = keep(await admin.put('/api/admin/settings', { mail: { smtp_url: 'http://mail.example.com' } }));
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatchObject({ param: 'mail.smtp_url' });
  const user = new ApiClient(gateway.url);
  await user.post('/api/auth/login', { email: 'newcomer@example.com', password: 'newcomer password 1' });
  expect((await user.put('/api/admin/settings', { mail: { smtp_url: null } })).status).toBeGreaterThanOrEqual(401);

  const audit = keep(await admin.get('/api/admin/audit?limit=500'));
  const mailChanges = audit.body.data.filter((row: { action: string }) => row.action === 'settings.mail');
  expect(mailChanges).toHaveLength(3);
  const stored = await gateway.database.db.selectFrom('settings').select('value_json').where('key', '=', 'mail').executeTakeFirstOrThrow();
  const everything = [...answers, ...logLines, JSON.stringify(audit.body), stored.value_json].join('\n');
  for (const secret of [SMTP_PASSWORD, WRONG_PASSWORD, encodeURIComponent(SMTP_PASSWORD)]) expect(everything).not.toContain(secret);
  // The mail settings did reach the log machinery (so the check above looked at something).
  expect(logLines.length).toBeGreaterThan(0);
});

it('says so, and sends nothing elsewhere, when the stored SMTP URL cannot be decrypted (GATEWAY_SECRET changed)', async () => {
  // Sealed under another secret, as after a GATEWAY_SECRET change.
  const { createSecretBox } = await import('../../src/accounts/secret-box.ts');
  const { setSetting } = await import('../../src/db/repositories/settings.ts');
  await setSetting(gateway.database.db, 'mail', { smtp_url_encrypted: createSecretBox('another-secret-another-secret-another').encrypt(runtimeUrl(SMTP_PASSWORD)) });
  const settings = await admin.get('/api/admin/settings');
  expect(settings.status).toBe(200);
  expect(settings.body.mail).toMatchObject({ smtp_url_set: true, smtp_source: 'runtime', smtp_host: null, smtp_error: expect.stringMatching(/cannot be used.*Set it again/) });
  const before = envSmtp.mails.length + runtimeSmtp.mails.length;
  const tested = await admin.post('/api/admin/settings/test-mail', { to: 'ops@example.com' });
  expect(tested.body).toMatchObject({ sent: false, error: expect.stringMatching(/cannot be used/) });
  expect(envSmtp.mails.length + runtimeSmtp.mails.length).toBe(before);
  expect((await admin.put('/api/admin/settings', { mail: { smtp_url: null } })).body.mail).toMatchObject({ smtp_source: 'env', smtp_error: null });
});
