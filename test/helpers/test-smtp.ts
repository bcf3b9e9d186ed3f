// A real SMTP server in the test process (the smtp-server package): collects every mail the gateway sends,
// so tests read them (and the links in them) as a user would.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The raw message with quoted-printable soft breaks and escapes undone, enough to find links. */
  decoded: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Waits for a mail to `to` whose subject matches, among the mails from index `since` on. */
  waitFor(to: string, subject: RegExp, since?: number, timeoutMs?: number): Promise<ReceivedMail>;
  /** Refuses (true) or accepts (false) mail, to test retries. */
  setRefusing(refusing: boolean): void;
  close(): Promise<void>;
}

export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]*${path.replace(/[/?]/g, '\\$&')}[^\\s"<>]*`).exec(mail.decoded);
  if (!match) throw new Error(`No ${path} link in mail '${mail.subject}'`);
  return match[0].replace(/&amp;/g, '&');
}

/** `login`: the server then takes mail only after AUTH with this user and password (over plain SMTP, as tests have no TLS). */
export async function startTestSmtp(options: { login?: { user: string; password: string } } = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refusing = false;
  const { login } = options;
  const server = new SMTPServer({
    authOptional: login === undefined,
    allowInsecureAuth: login !== undefined,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && (auth.username !== login.user || auth.password !== login.password)) {
        callback(Object.assign(new Error('Invalid username or password (test)'), { responseCode: 535 }));
        return;
      }
      callback(null, { user: auth.username ?? 'test' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusing) {
          callback(Object.assign(new Error('Mailbox unavailable (test)'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject, decoded: decodeQuotedPrintable(raw) });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    setRefusing: (value) => {
      refusing = value;
    },
    waitFor(to, subject, since = 0, timeoutMs = 10_000) {
      const find = () => mails.slice(since).find((m) => m.to.includes(to) && subject.test(m.subject));
      const existing = find();
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms (got: ${mails.map((m) => `${m.to.join()}:${m.subject}`).join(', ')})`));
        }, timeoutMs);
        const check = () => {
          const mail = find();
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mail);
        };
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
