// The session cookie: HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https. Parsed by hand (one cookie,
// no dependency needed).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS } from '../accounts/sessions.ts';

const SESSION_COOKIE = 'gw_session';

export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === SESSION_COOKIE) {
      const value = part.slice(index + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean, maxAgeMs = SESSION_ABSOLUTE_MS): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure ? '; Secure' : ''}`);
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`);
}
