// Sign-up with e-mail verification. The answer to a sign-up never tells whether the address already has an
// account: both paths hash a password, queue one mail and return the same body (a known address gets a
// "you already have an account" mail instead of a second account).
import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import { normalizeEmail } from './accounts-deps.ts';
import { hashPassword } from './passwords.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { alreadyRegisteredMail, verifyEmailMail } from './mail/mail-templates.ts';
import { getSetting } from '../db/repositories/settings.ts';
import { registrationSettingColumn } from '../db/json-columns.ts';
import { forbidden, invalidRequest } from '../gateway-errors.ts';
import { confirmEmailChange } from './profile.ts';
import { createUser, findUserByEmail, markEmailVerified } from '../db/repositories/users.ts';

interface RegistrationSetting {
  mode: 'open' | 'closed' | 'domains';
  /** For mode 'domains': e-mail domains allowed to sign up, lower case. */
  domains: string[];
}

export const REGISTRATION_SETTING = 'registration';

export async function registrationSetting(deps: Pick<AccountsDeps, 'db'>): Promise<RegistrationSetting> {
  return (await getSetting(deps.db, REGISTRATION_SETTING, registrationSettingColumn)) ?? { mode: 'open', domains: [] };
}

/** A unique internal handle; the display name lives in the user's profile settings. */
const newHandle = () => `user_${randomBytes(6).toString('hex')}`;

/** Refuses (403) when registration is closed to this address; the only part of sign-up the caller waits for. */
export async function checkRegistrationOpen(deps: AccountsDeps, emailInput: string): Promise<void> {
  const email = normalizeEmail(emailInput);
  const registration = await registrationSetting(deps);
  if (registration.mode === 'closed') throw forbidden('Sign-up is closed on this gateway. Ask an administrator for an account.', 'registration_closed');
  if (registration.mode === 'domains' && !registration.domains.includes(email.split('@')[1] ?? '')) {
    throw forbidden('Sign-up is open only to some e-mail domains, and this address is not in one of them.', 'registration_domain_not_allowed');
  }
}

/**
 * Creates the account and mails the link, or mails "you already have an account". Run behind the answer
 * (see runBehind), so a known and an unknown address take the same time to answer.
 */
export async function signUp(deps: AccountsDeps, input: { email: string; password: string; name?: string | undefined }): Promise<void> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(deps.db, email);
  if (existing) {
    const base = deps.publicUrl();
    await deps.outbox.enqueue(alreadyRegisteredMail(email, `${base}/login`, `${base}/forgot-password`));
    return;
  }
  let user;
  try {
    user = await createUser(deps.db, newHandle(), {
      email,
      password_hash: passwordHash,
      settings_json: JSON.stringify(input.name ? { profile: { name: input.name } } : {}),
    });
  } catch {
    // A concurrent sign-up with the same address won the unique index: answer as for a known address.
    return;
  }
  await sendVerification(deps, user.id, email);
}

async function sendVerification(deps: AccountsDeps, userId: number, email: string): Promise<void> {
  const token = await issueEmailToken(deps.db, userId, 'verify_email');
  const link = `${deps.publicUrl()}/verify-email?token=${token}`;
  await deps.outbox.enqueue(verifyEmailMail(email, link), link);
}

/** Same answer whether or not the address is known or already verified. */
export async function resendVerification(deps: AccountsDeps, emailInput: string): Promise<void> {
  const user = await findUserByEmail(deps.db, normalizeEmail(emailInput));
  if (user && user.email_verified_at === null && user.status === 'active') await sendVerification(deps, user.id, user.email!);
}

/** Verifies a new account's address, or confirms a new address of an existing account (same link page). */
export async function verifyEmail(deps: AccountsDeps, token: string): Promise<void> {
  const used = await consumeEmailToken(deps.db, token, 'verify_email');
  if (!used && await confirmEmailChange(deps, token)) return;
  if (!used) throw invalidRequest('This verification link is invalid, used or expired. Ask for a new one.', 'token', 'invalid_token');
  await markEmailVerified(deps.db, used.user_id);
}

const MAX_BEHIND = 64;
let behind = 0;

/**
 * Work whose outcome must not show in the answer's timing: done after the answer, failures logged. At most
 * 64 such jobs wait at once; beyond that the request itself waits (a flood of sign-ups cannot queue
 * unbounded password hashing in memory).
 */
export async function runBehind(deps: AccountsDeps, what: string, work: () => Promise<void>): Promise<void> {
  const logged = (error: unknown) => deps.logger.error({ err: error }, `${what} failed`);
  if (behind >= MAX_BEHIND) return work().catch(logged);
  behind++;
  setImmediate(() => {
    work().catch(logged).finally(() => {
      behind--;
    });
  });
}
