// Browser sessions: a random token in an HttpOnly cookie, only its SHA-256 in the database. A session ends
// after 7 idle days or 30 days in all, whichever comes first; a new token is issued at sign-in and on every
// privilege change (rotateSession), so a token seen before a change is worth nothing after it.
import { createHmac, hash, randomBytes } from 'node:crypto';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { SessionsTable } from '../db/schema.ts';
import { deleteSession, deleteUserSessions, findSessionByTokenHash, insertSession, listLiveUserSessions, touchSession } from '../db/repositories/sessions.ts';

export const SESSION_IDLE_MS = 7 * 86_400_000;
export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
/** Between the password and the second factor. */
export const PENDING_TOTP_MS = 5 * 60_000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export type SessionRow = SessionsTable;

export interface NewSession {
  id: string;
  token: string;
  row: SessionRow;
}

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** Derived from the secret token, so it needs no storage; readable by the page (the cookie is not). */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', 'csrf-token').update(sessionToken).digest('base64url');
}

export async function createSession(db: Db, userId: number, stage: SessionRow['stage'], client: { ip: string | null; userAgent: string | null }, now = Date.now(), expiresAt?: number): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const row: SessionRow = {
    id: randomBytes(12).toString('base64url'),
    token_hash: hashToken(token),
    user_id: userId,
    stage,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt ?? now + (stage === 'pending_totp' ? PENDING_TOTP_MS : SESSION_ABSOLUTE_MS),
    ip: client.ip,
    user_agent: client.userAgent?.slice(0, 300) ?? null,
  };
  await insertSession(db, row);
  return { id: row.id, token, row };
}

/** The live session for a token, or undefined (unknown, idle too long or past its absolute end). */
export async function findSession(db: Db, token: string, now = Date.now()): Promise<SessionRow | undefined> {
  if (token.length > 100) return undefined;
  const row = await findSessionByTokenHash(db, hashToken(token));
  if (!row) return undefined;
  if (row.expires_at <= now || (row.stage === 'active' && row.last_seen_at + SESSION_IDLE_MS <= now)) {
    await deleteSession(db, row.id);
    return undefined;
  }
  if (row.stage === 'active' && now - row.last_seen_at > TOUCH_EVERY_MS) {
    await touchSession(db, row.id, now);
  }
  return row;
}

/** A new token for the same sign-in (same absolute end); the old token stops working at once. */
export async function rotateSession(db: Db, session: SessionRow, now = Date.now()): Promise<NewSession> {
  await deleteSession(db, session.id);
  return createSession(db, session.user_id, 'active', { ip: session.ip, userAgent: session.user_agent }, now, session.expires_at);
}

export async function endSession(db: Db, id: string): Promise<void> {
  await deleteSession(db, id);
}

/** Ends a user's sessions, all of them or all but one; returns how many ended. */
export async function endUserSessions(db: Db, userId: number, exceptId?: string): Promise<number> {
  return deleteUserSessions(db, userId, exceptId);
}

export async function listUserSessions(db: Db, userId: number, now = Date.now()) {
  return listLiveUserSessions(db, userId, now, now - SESSION_IDLE_MS);
}
