// What the account services need, built once in src/http/routes/api-routes.ts.
import type { Logger } from 'pino';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { SecretBox } from './secret-box.ts';
import type { MailOutbox } from './mail/mail-outbox.ts';
import type { RuntimeMailTransport } from './mail/runtime-mail-transport.ts';
import type { AnnounceChange } from '../cluster/invalidation-bus.ts';

export interface AccountsDeps {
  db: Db;
  secrets: SecretBox;
  outbox: MailOutbox;
  /** The outbox's transport: the mail settings in force, and a send that answers at once (test mail). */
  mail: RuntimeMailTransport;
  logger: Logger;
  announce: AnnounceChange;
  /** PUBLIC_URL without a trailing slash; links in mails start with it. */
  publicUrl(): string;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
