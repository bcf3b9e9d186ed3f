// Who is calling /api: a signed-in browser (session cookie; state changes need X-CSRF-Token) or a script
// with an sk- key of the gateway (where a route allows keys; /api/admin does, for an admin's key).
// The one place /api authentication is decided.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { UserRow } from '../db/schema.ts';
import type { GatewayState } from '../gateway-state.ts';
import { csrfTokenFor, findSession, type SessionRow } from '../accounts/sessions.ts';
import { csrfTokenMissing, forbidden, notSignedIn } from '../gateway-errors.ts';
import { authenticateRequest, presentedKey } from './authenticate.ts';
import { readSessionCookie } from './session-cookie.ts';
import { findUserById } from '../db/repositories/users.ts';

/** public: anyone; signed_in: a session even before e-mail verification; verified: a verified account; admin. */
export type ApiAccess = 'public' | 'signed_in' | 'verified' | 'admin';

export interface ApiCaller {
  user: UserRow;
  via: 'session' | 'key';
  /** Set when via is 'session'. */
  session?: SessionRow;
  sessionToken?: string;
  /** Set when via is 'key'. */
  keyId?: number;
}

export interface ApiCallerDeps {
  db: Db;
  state: GatewayState;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The caller, or undefined when nobody is signed in (or the cookie is stale). Does not check access. */
async function findApiCaller(deps: ApiCallerDeps, request: FastifyRequest, allowKeys: boolean): Promise<ApiCaller | undefined> {
  const token = readSessionCookie(request);
  if (token) {
    const session = await findSession(deps.db, token);
    if (session && session.stage === 'active') {
      const user = await findUserById(deps.db, session.user_id);
      if (user) return { user, via: 'session', session, sessionToken: token };
    }
  }
  if (allowKeys && presentedKey(request) !== undefined) {
    const key = authenticateRequest(deps.state, request);
    // An organisation's key would read as the organisation's wallet account, every member's calls included:
    // the dashboard API is for people (the organisation's pages take a member's session).
    if (key.memberUserId !== null) throw forbidden("An organisation's key cannot read the dashboard API; sign in as a member instead.", 'organisation_key');
    const user = await findUserById(deps.db, key.userId);
    if (user) return { user, via: 'key', keyId: key.id };
  }
  return undefined;
}

/** Resolves and checks the caller for a route's access level; throws 401/403 in the OpenAI envelope. */
export async function resolveApiCaller(deps: ApiCallerDeps, request: FastifyRequest, access: ApiAccess, allowKeys: boolean): Promise<ApiCaller | undefined> {
  if (access === 'public') return undefined;
  const caller = await findApiCaller(deps, request, allowKeys);
  if (!caller) throw notSignedIn();
  if (caller.via === 'session' && !SAFE_METHODS.has(request.method)) checkCsrf(request, caller.sessionToken!);
  if (caller.user.status !== 'active') throw forbidden('This account is disabled.', 'account_disabled');
  if (access === 'signed_in') return caller;
  if (caller.user.email !== null && caller.user.email_verified_at === null) {
    throw forbidden('Verify your e-mail address first: open the link we sent you, or ask for a new one.', 'email_not_verified');
  }
  if (access === 'admin' && caller.user.role !== 'admin') throw forbidden('This endpoint is for administrators.', 'admin_only');
  return caller;
}

function checkCsrf(request: FastifyRequest, sessionToken: string): void {
  const sent = request.headers['x-csrf-token'];
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  if (typeof sent !== 'string' || sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), expected)) throw csrfTokenMissing();
}
