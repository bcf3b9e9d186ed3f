// A sign-in through an identity provider, from the redirect out to the return: state, nonce and the PKCE
// verifier are kept server-side (encrypted), under the SHA-256 of a random value that only the browser's
// gw_signin cookie holds. The return is accepted once (the row is deleted by the one request that finds
// it), within 10 minutes, in the browser that started it: a link carrying someone else's code and state
// (a login CSRF) finds no flow.
import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import { hashToken } from './sessions.ts';

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
  await deps.db.deleteFrom('signin_flows').where('expires_at', '<=', now).execute();
  await deps.db.insertInto('signin_flows').values({
    id_hash: hashToken(browserValue),
    provider_id: providerId,
    data_encrypted: deps.secrets.encrypt(JSON.stringify(data)),
    expires_at: now + SIGNIN_FLOW_MS,
  }).execute();
  return browserValue;
}

/** The flow for this browser and provider, removed so it cannot be used again; undefined when none. */
export async function takeSigninFlow(deps: AccountsDeps, providerId: number, browserValue: string | undefined, now = Date.now()): Promise<SigninFlowData | undefined> {
  if (!browserValue) return undefined;
  const idHash = hashToken(browserValue);
  const row = await deps.db.selectFrom('signin_flows').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) return undefined;
  const deleted = await deps.db.deleteFrom('signin_flows').where('id_hash', '=', idHash).executeTakeFirst();
  // Two requests raced for the same flow: only the one whose delete removed it goes on.
  if (Number(deleted.numDeletedRows) !== 1 || row.expires_at <= now || Number(row.provider_id) !== providerId) return undefined;
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
