// Where mail goes: an SMTP server (SMTP_URL, smtp:// or smtps://, credentials in the URL) through
// nodemailer, or, with no SMTP_URL, .eml files under DATA_DIR/mail so a lone `npm start` still works.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** 'smtp' or 'file', for the logs and the admin settings page. */
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

interface MailTransportOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}

// nodemailer (~5 MB of heap) is loaded when the first mail is sent, not at start: most gateways send
// mail rarely or never. It is CommonJS, so a synchronous require keeps createMailTransport synchronous.
const requireModule = createRequire(import.meta.url);
const loadNodemailer = (): typeof import('nodemailer') => requireModule('nodemailer') as typeof import('nodemailer');

/** Creates the nodemailer transport on first use; `closeIfOpen` does nothing when none was made. */
function lazyTransport(create: (nodemailer: typeof import('nodemailer')) => Transporter): { get(): Transporter; closeIfOpen(): void } {
  let transport: Transporter | null = null;
  return {
    get: () => (transport ??= create(loadNodemailer())),
    closeIfOpen: () => transport?.close(),
  };
}

export function createMailTransport(options: MailTransportOptions): MailTransport {
  if (options.smtpUrl) {
    // Short timeouts: the outbox retries later, so a slow server only delays mail, never a request.
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((nodemailer) => {
      const created = nodemailer.createTransport(smtpUrl, { from: options.from });
      const smtp = created as unknown as { options: Record<string, unknown> };
      Object.assign(smtp.options, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
      return created;
    });
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.get().sendMail({ from: options.from, ...mail });
      },
      close: () => transport.closeIfOpen(),
    };
  }
  const builder = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  const folder = join(options.dataDir, 'mail');
  let sequence = 0;
  return {
    kind: 'file',
    async send(mail) {
      const info = await builder.get().sendMail({ from: options.from, ...mail });
      await mkdir(folder, { recursive: true });
      const safeTo = mail.to.replace(/[^A-Za-z0-9@._-]/g, '_');
      await writeFile(join(folder, `${Date.now()}-${process.pid}-${++sequence}-${safeTo}.eml`), info.message as Buffer);
    },
    close: () => builder.closeIfOpen(),
  };
}
