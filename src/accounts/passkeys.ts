// Passkeys (WebAuthn, @simplewebauthn/server). A passkey sign-in is a whole sign-in: the authenticator
// proves possession of the key and, because user verification is required, its PIN or biometric check is
// the second factor; so it never asks for the TOTP code (docs/accounts-and-admin.md#passkeys).
//
// Challenges are stateless until used: the challenge is a sealed (AES-GCM, secret-box) record of its
// purpose, its user and its expiry (5 minutes), so asking for one stores nothing and a flood of requests
// costs no memory or rows. An answered challenge is remembered (hashed) until it expires, so the same
// signed answer is never accepted twice. The signature counter must move forward (when the authenticator
// keeps one), or the sign-in is refused as coming from a cloned authenticator.
import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import type { UserRow } from '../db/schema.ts';
import {
  advancePasskeyCounter, findPasskeyByCredential, insertPasskey, listPasskeysOfUser, passkeyTransportsOf, recordUsedChallenge, renamePasskeyOfUser, type PasskeyRow,
} from '../db/repositories/passkeys.ts';
import { hashToken } from './sessions.ts';
import { apiNotFound, invalidCredentials, invalidRequest } from '../gateway-errors.ts';
import { findUserById } from '../db/repositories/users.ts';

// Loaded on first use: a gateway whose users have no passkeys never loads the WebAuthn verifier.
const loadServer = () => import('@simplewebauthn/server');

const PASSKEY_CHALLENGE_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;

type Purpose = 'register' | 'sign_in';
interface ChallengeRecord { p: Purpose; u: number | null; e: number; r: string }

const relyingParty = (deps: AccountsDeps) => {
  const url = new URL(deps.publicUrl());
  return { rpID: url.hostname, origin: url.origin };
};

function newChallenge(deps: AccountsDeps, purpose: Purpose, userId: number | null, now: number): string {
  const record: ChallengeRecord = { p: purpose, u: userId, e: now + PASSKEY_CHALLENGE_MS, r: randomBytes(16).toString('base64url') };
  return deps.secrets.encrypt(JSON.stringify(record));
}

/** The challenge the browser signed (base64url of our sealed text), checked for purpose, user and expiry. */
function readChallenge(deps: AccountsDeps, signedChallenge: string, purpose: Purpose, userId: number | null, now: number): ChallengeRecord | undefined {
  try {
    const record = JSON.parse(deps.secrets.decrypt(Buffer.from(signedChallenge, 'base64url').toString('utf8'))) as ChallengeRecord;
    if (record.p !== purpose || record.u !== userId || record.e <= now) return undefined;
    return record;
  } catch {
    return undefined;
  }
}

/** Marks the challenge used; false when it already was (a replay). */
async function spendChallenge(deps: AccountsDeps, signedChallenge: string, record: ChallengeRecord, now: number): Promise<boolean> {
  return recordUsedChallenge(deps.db, hashToken(signedChallenge), record.e, now);
}

/** The challenge the browser put in clientDataJSON, read before verification to find our record. */
function clientChallenge(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== 'string' || encoded.length > 20_000) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

export function passkeyView(row: PasskeyRow) {
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

export async function listPasskeys(deps: Pick<AccountsDeps, 'db'>, userId: number): Promise<PasskeyRow[]> {
  return listPasskeysOfUser(deps.db, userId);
}

export async function passkeyRegistrationOptions(deps: AccountsDeps, user: UserRow, now = Date.now()) {
  const existing = await listPasskeys(deps, user.id);
  if (existing.length >= MAX_PASSKEYS) throw invalidRequest(`An account holds at most ${MAX_PASSKEYS} passkeys; remove one first.`, null, 'too_many_passkeys');
  const { generateRegistrationOptions } = await loadServer();
  const { rpID } = relyingParty(deps);
  return generateRegistrationOptions({
    rpName: 'Model gateway',
    rpID,
    userName: user.email ?? user.name,
    challenge: newChallenge(deps, 'register', user.id, now),
    timeout: PASSKEY_CHALLENGE_MS,
    attestationType: 'none',
    // The same authenticator is not registered twice on one account.
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, ...passkeyTransportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

export async function registerPasskey(deps: AccountsDeps, user: UserRow, name: string, response: Record<string, unknown>, now = Date.now()): Promise<PasskeyRow> {
  const refused = () => invalidRequest('The passkey could not be registered: ask for new options and try again.', 'response', 'passkey_not_registered');
  const signed = clientChallenge(response as never);
  const record = signed ? readChallenge(deps, signed, 'register', user.id, now) : undefined;
  if (!signed || !record) throw refused();
  const { verifyRegistrationResponse } = await loadServer();
  const { rpID, origin } = relyingParty(deps);
  let verification;
  try {
    verification = await verifyRegistrationResponse({ response: response as never, expectedChallenge: signed, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true });
  } catch (error) {
    deps.logger.info({ err: error }, 'passkey registration refused');
    throw refused();
  }
  if (!verification.verified || !verification.registrationInfo) throw refused();
  if (!await spendChallenge(deps, signed, record, now)) throw refused();
  if ((await listPasskeys(deps, user.id)).length >= MAX_PASSKEYS) throw invalidRequest(`An account holds at most ${MAX_PASSKEYS} passkeys; remove one first.`, null, 'too_many_passkeys');
  const { credential } = verification.registrationInfo;
  const taken = await findPasskeyByCredential(deps.db, credential.id);
  if (taken) throw refused();
  return insertPasskey(deps.db, {
    user_id: user.id,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
    name,
    created_at: now,
    last_used_at: null,
  });
}

export async function passkeySignInOptions(deps: AccountsDeps, now = Date.now()) {
  const { generateAuthenticationOptions } = await loadServer();
  // No allowCredentials: the browser offers the passkeys it holds for this site (discoverable credentials),
  // so the options tell nothing about which accounts exist.
  return generateAuthenticationOptions({ rpID: relyingParty(deps).rpID, challenge: newChallenge(deps, 'sign_in', null, now), timeout: PASSKEY_CHALLENGE_MS, userVerification: 'required' });
}

/** The account a passkey answer signs in, or 401 passkey_not_accepted (one answer for every failure). */
export async function signInWithPasskey(deps: AccountsDeps, response: Record<string, unknown>, now = Date.now()): Promise<UserRow> {
  const refused = () => invalidCredentials('The passkey was not accepted: it is unknown here, or the answer expired or was already used. Try again.', 'passkey_not_accepted');
  const signed = clientChallenge(response as never);
  const record = signed ? readChallenge(deps, signed, 'sign_in', null, now) : undefined;
  const credentialId = typeof response.id === 'string' ? response.id : undefined;
  if (!signed || !record || !credentialId) throw refused();
  const passkey = await findPasskeyByCredential(deps.db, credentialId);
  if (!passkey) throw refused();
  const { verifyAuthenticationResponse } = await loadServer();
  const { rpID, origin } = relyingParty(deps);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as never,
      expectedChallenge: signed,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: { id: passkey.credential_id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')), counter: Number(passkey.counter), ...passkeyTransportsOf(passkey) },
    });
  } catch (error) {
    // Includes a counter that did not move forward (a cloned authenticator).
    deps.logger.info({ err: error }, 'passkey sign-in refused');
    throw refused();
  }
  if (!verification.verified) throw refused();
  if (!await spendChallenge(deps, signed, record, now)) throw refused();
  // Conditional on the counter we checked against: two answers racing cannot both move it.
  if (!await advancePasskeyCounter(deps.db, passkey.id, passkey.counter, verification.authenticationInfo.newCounter, now)) throw refused();
  const user = await findUserById(deps.db, Number(passkey.user_id));
  if (!user) throw refused();
  return user;
}

export async function renamePasskey(deps: Pick<AccountsDeps, 'db'>, userId: number, id: number, name: string): Promise<PasskeyRow> {
  const renamed = await renamePasskeyOfUser(deps.db, userId, id, name);
  if (!renamed) throw apiNotFound('This passkey');
  return renamed;
}
