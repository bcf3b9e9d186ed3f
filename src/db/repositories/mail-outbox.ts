// The mail queue's rows (src/accounts/mail/mail-outbox.ts sends them). A row is claimed by a conditional
// update of locked_until before it is sent, so several instances never send the same row at once.
import type { Db } from './repository-helpers.ts';

export interface QueuedMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

/** Pending mails due at `now`, oldest first, at most `limit`. */
export async function listDueMail(db: Db, now: number, limit: number): Promise<QueuedMail[]> {
  return db.selectFrom('mail_outbox').select(['id', 'to_address', 'subject', 'text_body', 'html_body', 'attempts'])
    .where('status', '=', 'pending').where('next_attempt_at', '<=', now).orderBy('id').limit(limit).execute();
}

/** Locks a pending, unlocked mail until `lockedUntil`; false when another sender holds it or it is no longer pending. */
export async function claimMail(db: Db, id: number, now: number, lockedUntil: number): Promise<boolean> {
  const claimed = await db.updateTable('mail_outbox').set({ locked_until: lockedUntil })
    .where('id', '=', id).where('status', '=', 'pending').where('locked_until', '<=', now).executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

export async function markMailSent(db: Db, id: number, attempts: number, now = Date.now()): Promise<void> {
  await db.updateTable('mail_outbox').set({ status: 'sent', sent_at: now, attempts, last_error: null }).where('id', '=', id).execute();
}

/** A failed send: retried at `nextAttemptAt` (unlocked), or given up when `failed`. */
export async function markMailNotSent(db: Db, id: number, attempts: number, error: string, failed: boolean, nextAttemptAt: number): Promise<void> {
  await db.updateTable('mail_outbox').set({ status: failed ? 'failed' : 'pending', attempts, last_error: error, next_attempt_at: nextAttemptAt, locked_until: 0 })
    .where('id', '=', id).execute();
}

/** How many mails were queued to an address since `since`. */
export async function countMailTo(db: Db, address: string, since: number): Promise<number> {
  const recent = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('to_address', '=', address).where('created_at', '>', since).executeTakeFirstOrThrow();
  return Number(recent.n);
}

export async function insertMail(db: Db, mail: { to: string; subject: string; text: string; html: string }, now: number): Promise<void> {
  await db.insertInto('mail_outbox').values({
    to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html,
    status: 'pending', attempts: 0, next_attempt_at: now, locked_until: 0, last_error: null, created_at: now, sent_at: null,
  }).execute();
}
