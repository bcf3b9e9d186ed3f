// A sign-in through an identity provider, from the redirect out to the return: state, nonce and the PKCE
// verifier are kept server-side (encrypted), under the SHA-256 of a random value that only the browser's
// gw_signin cookie holds. The return is accepted once (the row is deleted by the one request that finds
// it), within 10 minutes, in the browser that started it: a link carrying someone else's code and state
// (a login CSRF) finds no flow.
import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import { hashToken } from './sessions.ts';
import { insertSigninFlow, takeSigninFlowRow } from '../db/repositories/signin-flows.ts';

export const SIGNIN_FLOW_MS = 10 * 60_000;

export interface SigninFlowData {
  state: string;
  nonce: string;
  verifier: string;
  /** Where the dashboard goes afterwards: a path on this site (checked by safeReturnPath). */
  next: string;
}

/** Stores the flow; answers the random value for the browser's cookie. */
export async function storeSigninFlow(deps: AccountsDeps, providerId: number, data: SigninFlowData, now = Date.now()): Promise<string> {
  const browserValue = randomBytes(32).toString('base64url');
  // Abandoned flows are cleared as new ones start: the table holds at most 10 minutes of starts.
  await insertSigninFlow(deps.db, {
    id_hash: hashToken(browserValue),
    provider_id: providerId,
    data_encrypted: deps.secrets.encrypt(JSON.stringify(data)),
    expires_at: now + SIGNIN_FLOW_MS,
  }, now);
  return browserValue;
}

/** The flow for this browser and provider, removed so it cannot be used again; undefined when none. */
export async function takeSigninFlow(deps: AccountsDeps, providerId: number, browserValue: string | undefined, now = Date.now()): Promise<SigninFlowData | undefined> {
  if (!browserValue) return undefined;
  const idHash = hashToken(browserValue);
  // Taken (read and deleted) at once, so it cannot be used twice, even by two racing requests.
  const row = await takeSigninFlowRow(deps.db, idHash);
  if (!row || row.expires_at <= now || Number(row.provider_id) !== providerId) return undefined;
  return JSON.parse(deps.secrets.decrypt(row.data_encrypted)) as SigninFlowData;
}

/**
 * A return path on this site, or '/'. Only a single leading slash followed by a path character: no scheme,
 * no //host, no backslash (browsers read /\host as //host), no control characters. What a Location header
 * cannot carry (DEL, anything past ASCII) is percent-encoded: raw, Node refuses to write the header and the
 * sign-in that had just succeeded ended in a 500.
 */
export function safeReturnPath(value: string | undefined | null): string {
  if (!value || value.length > 1000 || !value.isWellFormed()) return '/';
  if (!/^\/(?![/\\])[^\\\s\u0000-\u001f]*$/.test(value)) return '/';
  return value.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
}
