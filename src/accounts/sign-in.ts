// Sign-in with e-mail and password, then (when two-factor is on) a TOTP or recovery code. Unknown
// addresses and wrong passwords get the same answer after the same work (a password hash is checked either
// way), and both count towards the throttle.
import type { AccountsDeps, ClientInfo } from './accounts-deps.ts';
import { normalizeEmail } from './accounts-deps.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { accountSubject, clearFailures, ipSubject, recordFailure, throttleDelaySeconds } from './login-throttle.ts';
import { createSession, endSession, findSession, rotateSession, type NewSession } from './sessions.ts';
import { acceptSecondFactor } from './two-factor.ts';
import { refuseWhenProviderRequired } from './signin-domains.ts';
import { findUserByEmail, getUserById } from '../db/repositories/users.ts';
import { forbidden, invalidCredentials, tooManyAttempts } from '../gateway-errors.ts';
import type { UserRow } from '../db/schema.ts';

/** Checked against when the address is unknown, so both answers take as long. */
let dummyHash: Promise<string> | undefined;

type SignInResult =
  | { stage: 'active'; session: NewSession; user: UserRow }
  | { stage: 'pending_totp'; session: NewSession };

export async function signIn(deps: AccountsDeps, input: { email: string; password: string }, client: ClientInfo): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const subjects = [accountSubject(email), ...(client.ip ? [ipSubject(client.ip)] : [])];
  const wait = await throttleDelaySeconds(deps.db, subjects);
  if (wait > 0) throw tooManyAttempts(wait);
  // Decided by the domain alone, before any account is looked at: it tells nothing about accounts.
  await refuseWhenProviderRequired(deps, email);
  const user = await findUserByEmail(deps.db, email);
  dummyHash ??= hashPassword('not-a-real-password-0123456789');
  const ok = await verifyPassword(input.password, user?.password_hash ?? await dummyHash) && user !== undefined && user.password_hash !== null;
  if (!ok || !user) {
    await recordFailure(deps.db, subjects);
    throw invalidCredentials();
  }
  if (user.status !== 'active') throw forbidden('This account is disabled.', 'account_disabled');
  if (user.totp_secret_encrypted) {
    return { stage: 'pending_totp', session: await createSession(deps.db, user.id, 'pending_totp', client) };
  }
  await clearFailures(deps.db, accountSubject(email));
  return { stage: 'active', session: await createSession(deps.db, user.id, 'active', client), user };
}

/** The second step: the pending session (from the first step's cookie) becomes a full one under a new token. */
export async function signInSecondFactor(deps: AccountsDeps, pendingToken: string | undefined, code: string, client: ClientInfo): Promise<{ session: NewSession; user: UserRow }> {
  const pending = pendingToken ? await findSession(deps.db, pendingToken) : undefined;
  if (!pending || pending.stage !== 'pending_totp') throw invalidCredentials('Sign in with your e-mail and password first; the second step expires after 5 minutes.', 'totp_session_missing');
  const user = await getUserById(deps.db, pending.user_id);
  const subjects = [accountSubject(user.email ?? user.name), ...(client.ip ? [ipSubject(client.ip)] : [])];
  const wait = await throttleDelaySeconds(deps.db, subjects);
  if (wait > 0) throw tooManyAttempts(wait);
  if (!await acceptSecondFactor(deps, user, code)) {
    await recordFailure(deps.db, subjects);
    throw invalidCredentials('The code is wrong, expired or already used.', 'invalid_code');
  }
  await clearFailures(deps.db, accountSubject(user.email ?? user.name));
  // A new token: the one that only passed the password step is never a full session.
  const session = await rotateSession(deps.db, { ...pending, expires_at: Date.now() + 30 * 86_400_000 });
  return { session, user };
}

export async function signOut(deps: AccountsDeps, sessionId: string): Promise<void> {
  await endSession(deps.db, sessionId);
}
