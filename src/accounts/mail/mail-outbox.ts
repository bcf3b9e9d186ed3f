// Mail is queued in the database (mail_outbox) and sent behind the request: a mail server that is slow or
// down never fails or slows the request that caused the mail. Failed sends are retried with growing waits,
// across restarts, and several instances never send the same row at once (a row is claimed by a
// conditional update of locked_until before it is sent).
import type { Logger } from 'pino';
import type { Db } from '../../db/repositories/repository-helpers.ts';
import type { MailTransport, OutgoingMail } from './mail-transport.ts';
import { claimMail, countMailTo, insertMail, listDueMail, markMailNotSent, markMailSent, type QueuedMail } from '../../db/repositories/mail-outbox.ts';

const MAX_MAIL_ATTEMPTS = 8;
/** At most this many mails to one address per hour: the public forms cannot be used to flood an inbox. */
const MAX_MAILS_PER_ADDRESS_PER_HOUR = 10;
const CLAIM_MS = 60_000;
const BATCH = 20;

export interface MailOutbox {
  readonly transport: MailTransport;
  /** Queues a mail (dropped beyond 10 an hour to one address); `link` is logged when mail goes to files. */
  enqueue(mail: OutgoingMail, link?: string): Promise<void>;
  /** Sends what is due now (also runs on a timer). Resolves when this pass is done. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

function retryDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** attempts, 10 * 60_000);
}

export function createMailOutbox(db: Db, transport: MailTransport, logger: Logger, pollMs = 2000): MailOutbox {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const sendOne = async (row: QueuedMail) => {
    const now = Date.now();
    if (!(await claimMail(db, row.id, now, now + CLAIM_MS))) return;
    try {
      await transport.send({ to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
      await markMailSent(db, row.id, row.attempts + 1);
    } catch (error) {
      const attempts = row.attempts + 1;
      const message = (error as Error).message.slice(0, 500);
      const failed = attempts >= MAX_MAIL_ATTEMPTS;
      logger.warn({ mailId: row.id, attempts, err: message }, failed ? 'mail given up after retries' : 'mail not sent; will retry');
      await markMailNotSent(db, row.id, attempts, message, failed, Date.now() + retryDelayMs(attempts));
    }
  };

  const pass = async () => {
    const due = await listDueMail(db, Date.now(), BATCH);
    for (const row of due) await sendOne(row);
  };

  const flush = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((error: unknown) => logger.error({ err: error }, 'mail outbox pass failed'));
      } while (again && !closed);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => void flush(), pollMs);
  timer.unref();

  // Enqueues run one after another on this instance, so the per-address count is exact here (between
  // instances it can be exceeded by the few mails queued at the same moment).
  let queue: Promise<void> = Promise.resolve();
  const enqueueOne = async (mail: OutgoingMail, link: string | undefined) => {
    const now = Date.now();
    if (await countMailTo(db, mail.to, now - 3_600_000) >= MAX_MAILS_PER_ADDRESS_PER_HOUR) {
      logger.warn({ subject: mail.subject }, 'mail not queued: this address got the most mails allowed in an hour');
      return;
    }
    await insertMail(db, mail, now);
    if (link && transport.kind === 'file') logger.info({ to: mail.to, link }, `mail written to DATA_DIR/mail (no SMTP_URL): ${mail.subject}`);
    // Behind the request: the caller does not wait for the send.
    setImmediate(() => void flush());
  };

  return {
    transport,
    enqueue(mail, link) {
      const next = queue.then(() => enqueueOne(mail, link));
      queue = next.catch(() => {});
      return next;
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
