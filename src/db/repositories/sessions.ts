// Browser sessions' rows (src/accounts/sessions.ts owns their lifetimes and tokens; only a token's hash is stored).
import type { SessionsTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

export async function insertSession(db: Db, row: SessionsTable): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function findSessionByTokenHash(db: Db, tokenHash: string): Promise<SessionsTable | undefined> {
  return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function touchSession(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Deletes a user's sessions, all of them or all but one; returns how many. */
export async function deleteUserSessions(db: Db, userId: number, exceptId?: string): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return Number((await query.executeTakeFirst()).numDeletedRows);
}

/** A user's signed-in sessions still alive at `now` (not idle since `seenAfter`), most recently seen first. */
export async function listLiveUserSessions(db: Db, userId: number, now: number, seenAfter: number) {
  return db.selectFrom('sessions').select(['id', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId).where('stage', '=', 'active').where('expires_at', '>', now).where('last_seen_at', '>', seenAfter)
    .orderBy('last_seen_at', 'desc').execute();
}

/** The id of a user's session, or undefined when there is none by that id for that user. */
export async function findUserSessionId(db: Db, userId: number, id: string): Promise<string | undefined> {
  return (await db.selectFrom('sessions').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst())?.id;
}
