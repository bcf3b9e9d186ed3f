// One-time links sent by mail (verify an address, reset or set a password, confirm a new address):
// 256 random bits, only the SHA-256 stored, single use, with an expiry.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { EmailTokensTable } from '../db/schema.ts';
import { hashToken } from './sessions.ts';
import { replaceEmailToken, useEmailToken } from '../db/repositories/email-tokens.ts';

type EmailTokenPurpose = EmailTokensTable['purpose'];

export const TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * 3_600_000,
  change_email: 24 * 3_600_000,
  set_password: 24 * 3_600_000,
  reset_password: 3_600_000,
};

/** Issues a token; earlier unused tokens of the same purpose for the user stop working. */
export async function issueEmailToken(db: Db, userId: number, purpose: EmailTokenPurpose, data: string | null = null, now = Date.now()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await replaceEmailToken(db, { token_hash: hashToken(token), user_id: userId, purpose, created_at: now, expires_at: now + TOKEN_TTL_MS[purpose], data }, now);
  return token;
}

/** Marks the token used and returns it, or undefined when unknown, used, expired or of another purpose. */
export async function consumeEmailToken(db: Db, token: string, purpose: EmailTokenPurpose, now = Date.now()): Promise<{ user_id: number; data: string | null } | undefined> {
  return useEmailToken(db, hashToken(token), purpose, now);
}
