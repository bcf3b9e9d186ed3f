// Password reset by mail (1 hour, single use; setting the new password ends every session of the user and
// clears the sign-in throttle of the account), setting a first password from an admin's invitation, and
// changing the password while signed in (needs the current one; other sessions end).
import type { AccountsDeps } from './accounts-deps.ts';
import { normalizeEmail } from './accounts-deps.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { resetPasswordMail } from './mail/mail-templates.ts';
import { endUserSessions } from './sessions.ts';
import { accountSubject, clearFailures } from './login-throttle.ts';
import { findUserByEmail, setPasswordFromMailedLink, setPasswordHash } from '../db/repositories/users.ts';
import { invalidRequest } from '../gateway-errors.ts';
import type { UserRow } from '../db/schema.ts';

/** Same answer whether or not the address is known. */
export async function requestPasswordReset(deps: AccountsDeps, emailInput: string): Promise<void> {
  const user = await findUserByEmail(deps.db, normalizeEmail(emailInput));
  if (!user || user.status !== 'active' || !user.email) return;
  const token = await issueEmailToken(deps.db, user.id, 'reset_password');
  const link = `${deps.publicUrl()}/reset-password?token=${token}`;
  await deps.outbox.enqueue(resetPasswordMail(user.email, link), link);
}

/** For reset_password and set_password tokens. Ends every session of the user. */
export async function confirmPasswordToken(deps: AccountsDeps, token: string, password: string): Promise<void> {
  const used = await consumeEmailToken(deps.db, token, 'reset_password') ?? await consumeEmailToken(deps.db, token, 'set_password');
  if (!used) throw invalidRequest('This link is invalid, used or expired. Ask for a new one.', 'token', 'invalid_token');
  const passwordHash = await hashPassword(password);
  const now = Date.now();
  // Following a mailed link proves the address, so it also counts as verification.
  const user = await setPasswordFromMailedLink(deps.db, used.user_id, passwordHash, now);
  await endUserSessions(deps.db, used.user_id);
  if (user.email) await clearFailures(deps.db, accountSubject(user.email));
}

export async function changePassword(deps: AccountsDeps, user: UserRow, currentPassword: string, newPassword: string, keepSessionId: string | undefined): Promise<void> {
  if (!user.password_hash || !await verifyPassword(currentPassword, user.password_hash)) {
    throw invalidRequest('The current password is wrong.', 'current_password', 'invalid_password');
  }
  await setPasswordHash(deps.db, user.id, await hashPassword(newPassword));
  await endUserSessions(deps.db, user.id, keepSessionId);
}
