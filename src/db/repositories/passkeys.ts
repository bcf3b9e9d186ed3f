// Passkeys' rows and the passkey challenges already answered (src/accounts/passkeys.ts verifies them).
import type { Insertable, Selectable } from 'kysely';
import type { PasskeysTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

export type PasskeyRow = Selectable<PasskeysTable>;

/**
 * Records a challenge as answered until it expires (expired records are cleared first); false when it
 * already was (a replay). The unique hash makes this hold between instances too.
 */
export async function recordUsedChallenge(db: Db, challengeHash: string, expiresAt: number, now: number): Promise<boolean> {
  await db.deleteFrom('used_challenges').where('expires_at', '<=', now).execute();
  const inserted = await db.insertInto('used_challenges').values({ challenge_hash: challengeHash, expires_at: expiresAt })
    .onConflict((c) => c.column('challenge_hash').doNothing()).executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function listPasskeysOfUser(db: Db, userId: number): Promise<PasskeyRow[]> {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function findPasskeyByCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

export async function insertPasskey(db: Db, row: Insertable<PasskeysTable>): Promise<PasskeyRow> {
  return db.insertInto('passkeys').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Moves the counter only if it is still `counterBefore` (two answers racing cannot both move it); false otherwise. */
export async function advancePasskeyCounter(db: Db, id: number, counterBefore: number, counter: number, now: number): Promise<boolean> {
  const moved = await db.updateTable('passkeys').set({ counter, last_used_at: now })
    .where('id', '=', id).where('counter', '=', counterBefore).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Renames the user's passkey and returns it; undefined when the user has no passkey with that id. */
export async function renamePasskeyOfUser(db: Db, userId: number, id: number, name: string): Promise<PasskeyRow | undefined> {
  const result = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
