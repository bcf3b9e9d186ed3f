// Mail is queued in the database (mail_outbox) and sent behind the request: a mail server that is slow or
// down never fails or slows the request that caused the mail. Failed sends are retried with growing waits,
// across restarts, and several instances never send the same row at once (a row is claimed by a
// conditional update of locked_until before it is sent).
import type { Logger } from 'pino';
import type { Db } from '../../db/repositories/repository-helpers.ts';
import type { MailTransport, OutgoingMail } from './mail-transport.ts';

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

  const sendOne = async (row: { id: number; to_address: string; subject: string; text_body: string; html_body: string; attempts: number }) => {
    const now = Date.now();
    const claimed = await db.updateTable('mail_outbox').set({ locked_until: now + CLAIM_MS })
      .where('id', '=', row.id).where('status', '=', 'pending').where('locked_until', '<=', now).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return;
    try {
      await transport.send({ to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
      await db.updateTable('mail_outbox').set({ status: 'sent', sent_at: Date.now(), attempts: row.attempts + 1, last_error: null }).where('id', '=', row.id).execute();
    } catch (error) {
      const attempts = row.attempts + 1;
      const message = (error as Error).message.slice(0, 500);
      const failed = attempts >= MAX_MAIL_ATTEMPTS;
      logger.warn({ mailId: row.id, attempts, err: message }, failed ? 'mail given up after retries' : 'mail not sent; will retry');
      await db.updateTable('mail_outbox').set({ status: failed ? 'failed' : 'pending', attempts, last_error: message, next_attempt_at: Date.now() + retryDelayMs(attempts), locked_until: 0 })
        .where('id', '=', row.id).execute();
    }
  };

  const pass = async () => {
    const due = await db.selectFrom('mail_outbox').select(['id', 'to_address', 'subject', 'text_body', 'html_body', 'attempts'])
      .where('status', '=', 'pending').where('next_attempt_at', '<=', Date.now()).orderBy('id').limit(BATCH).execute();
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
    const recent = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('to_address', '=', mail.to).where('created_at', '>', now - 3_600_000).executeTakeFirstOrThrow();
    if (Number(recent.n) >= MAX_MAILS_PER_ADDRESS_PER_HOUR) {
      logger.warn({ subject: mail.subject }, 'mail not queued: this address got the most mails allowed in an hour');
      return;
    }
    await db.insertInto('mail_outbox').values({
      to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html,
      status: 'pending', attempts: 0, next_attempt_at: now, locked_until: 0, last_error: null, created_at: now, sent_at: null,
    }).execute();
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
