// The gw_signin cookie: a random value that ties an identity-provider sign-in in progress to the browser
// that started it. HttpOnly, SameSite=Lax (sent on the provider's top-level redirect back, not on a
// cross-site subrequest), limited to /api/auth/sso, 10 minutes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNIN_FLOW_MS } from '../accounts/signin-flows.ts';

const SIGNIN_COOKIE = 'gw_signin';
const PATH = '/api/auth/sso';

export function readSigninCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index >= 0 && part.slice(0, index).trim() === SIGNIN_COOKIE) {
      const value = part.slice(index + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function signinCookie(value: string, secure: boolean): string {
  return `${SIGNIN_COOKIE}=${value}; Path=${PATH}; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(SIGNIN_FLOW_MS / 1000)}${secure ? '; Secure' : ''}`;
}

export function clearedSigninCookie(secure: boolean): string {
  return `${SIGNIN_COOKIE}=; Path=${PATH}; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** Adds a Set-Cookie header beside any already set (the session cookie). */
export function appendSetCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}
