// One-time mailed links' rows (src/accounts/email-tokens.ts issues and checks them; only a token's hash is stored).
import type { EmailTokensTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

type EmailTokenPurpose = EmailTokensTable['purpose'];

/** Stores a new token after retiring the user's unused ones of the same purpose. */
export async function replaceEmailToken(db: Db, row: Omit<EmailTokensTable, 'used_at'>, now: number): Promise<void> {
  await db.updateTable('email_tokens').set({ used_at: now }).where('user_id', '=', row.user_id).where('purpose', '=', row.purpose).where('used_at', 'is', null).execute();
  await db.insertInto('email_tokens').values({ ...row, used_at: null }).execute();
}

/**
 * Marks an unused, unexpired token of that purpose used and returns its user and data, or undefined. The
 * conditional update is the single-use guarantee, also between two instances.
 */
export async function useEmailToken(db: Db, tokenHash: string, purpose: EmailTokenPurpose, now: number): Promise<{ user_id: number; data: string | null } | undefined> {
  const updated = await db.updateTable('email_tokens').set({ used_at: now })
    .where('token_hash', '=', tokenHash).where('purpose', '=', purpose).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return undefined;
  return db.selectFrom('email_tokens').select(['user_id', 'data']).where('token_hash', '=', tokenHash).executeTakeFirstOrThrow();
}
