// The signed-in user's own profile and preferences. A new e-mail address takes effect only after the link
// sent to it is followed; until then the old address stays in use.
import type { AccountsDeps } from './accounts-deps.ts';
import { normalizeEmail } from './accounts-deps.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { changeEmailMail } from './mail/mail-templates.ts';
import { preferencesOf, type UserPreferences } from './user-view.ts';
import { findUserByEmail, setUserSettingsJson, setVerifiedEmail } from '../db/repositories/users.ts';
import { conflict } from '../gateway-errors.ts';
import type { UserRow } from '../db/schema.ts';

export async function updateProfile(deps: AccountsDeps, user: UserRow, changes: { name?: string | undefined; email?: string | undefined }): Promise<{ email_change_pending: boolean }> {
  if (changes.name !== undefined) await savePreferences(deps, user, { ...preferencesOf(user), profile: { ...preferencesOf(user).profile, name: changes.name } });
  if (changes.email === undefined) return { email_change_pending: false };
  const email = normalizeEmail(changes.email);
  if (email === user.email) return { email_change_pending: false };
  // The user is signed in and asked for it: telling them the address is taken is the expected answer.
  if (await findUserByEmail(deps.db, email)) throw conflict('This e-mail address is already in use by another account.', 'email', 'email_in_use');
  const token = await issueEmailToken(deps.db, user.id, 'change_email', email);
  const link = `${deps.publicUrl()}/verify-email?token=${token}`;
  await deps.outbox.enqueue(changeEmailMail(email, link), link);
  return { email_change_pending: true };
}

/** A change_email token: the new address replaces the old one. Returns false when the token is not one. */
export async function confirmEmailChange(deps: AccountsDeps, token: string): Promise<boolean> {
  const used = await consumeEmailToken(deps.db, token, 'change_email');
  if (!used || !used.data) return false;
  try {
    await setVerifiedEmail(deps.db, used.user_id, used.data);
  } catch {
    throw conflict('This e-mail address has been taken by another account meanwhile.', 'token', 'email_in_use');
  }
  return true;
}

export async function savePreferences(deps: AccountsDeps, user: UserRow, preferences: UserPreferences): Promise<void> {
  const json = JSON.stringify(preferences);
  user.settings_json = json;
  await setUserSettingsJson(deps.db, user.id, json);
}
