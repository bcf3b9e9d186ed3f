// The mail transport the outbox sends through: it reads the current mail settings (runtime override or
// SMTP_URL / MAIL_FROM, mail-settings.ts) at each send, so a change made on any instance applies to the next
// mail everywhere without a restart or a message between instances. The underlying transport (nodemailer
// SMTP, or .eml files) is kept while the settings stay the same and replaced when they change.
import type { Db } from '../../db/repositories/repository-helpers.ts';
import type { SecretBox } from '../secret-box.ts';
import { createMailTransport, type MailTransport, type OutgoingMail } from './mail-transport.ts';
import { readMailSettings, withoutSmtpSecrets, type EffectiveMailSettings, type MailDefaults } from './mail-settings.ts';

export interface RuntimeMailTransport extends MailTransport {
  /** The settings in force now (read from the database). */
  settings(): Promise<EffectiveMailSettings>;
  /** Sends at once (no outbox): the error, if any, with the SMTP password and user taken out. */
  sendNow(mail: OutgoingMail): Promise<{ sent: true } | { sent: false; error: string }>;
}

export function createRuntimeMailTransport(db: Db, secrets: SecretBox, defaults: MailDefaults, dataDir: string): RuntimeMailTransport {
  let current: { id: string; transport: MailTransport } | null = null;
  let kind: MailTransport['kind'] = defaults.smtpUrl ? 'smtp' : 'file';
  const settings = async () => {
    const effective = await readMailSettings(db, secrets, defaults);
    // Kept current on every read, so the outbox logs links only while mail really goes to files.
    kind = effective.smtpUrl || effective.smtpUrlError ? 'smtp' : 'file';
    return effective;
  };
  // The settings stored before this start decide `kind` from the outset (a failed read leaves the env's).
  void settings().catch(() => {});
  const transportFor = (effective: EffectiveMailSettings): MailTransport => {
    const id = JSON.stringify([effective.smtpUrl ?? null, effective.from]);
    if (current?.id !== id) {
      current?.transport.close();
      current = { id, transport: createMailTransport({ smtpUrl: effective.smtpUrl, from: effective.from, dataDir }) };
    }
    return current.transport;
  };
  const send = async (mail: OutgoingMail) => {
    const effective = await settings();
    if (effective.smtpUrlError) throw new Error(effective.smtpUrlError);
    try {
      await transportFor(effective).send(mail);
    } catch (error) {
      // The outbox stores and logs this message: it must not carry the password.
      throw new Error(withoutSmtpSecrets(error instanceof Error ? error.message : String(error), effective.smtpUrl));
    }
  };
  return {
    get kind() {
      return kind;
    },
    send,
    settings,
    async sendNow(mail) {
      try {
        await send(mail);
        return { sent: true };
      } catch (error) {
        return { sent: false, error: (error as Error).message };
      }
    },
    close() {
      current?.transport.close();
      current = null;
    },
  };
}
