// Passkeys' rows and the passkey challenges already answered (src/accounts/passkeys.ts verifies them).
import type { Insertable, Selectable } from 'kysely';
import { z } from 'zod';
import type { PasskeysTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

export type PasskeyRow = Selectable<PasskeysTable>;

/** WebAuthn's transport names (AuthenticatorTransportFuture): a hint to the browser, never a requirement. */
const transportsColumn = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']));

/**
 * passkeys.transports, read leniently: they only tell the browser where to look first, so a value that
 * does not parse (or names a transport this version does not know) reads as none, and the browser asks
 * every transport; the passkey itself still works.
 */
export function passkeyTransportsOf(row: Pick<PasskeyRow, 'transports'>): { transports?: z.infer<typeof transportsColumn> } {
  if (!row.transports) return {};
  let value: unknown;
  try {
    value = JSON.parse(row.transports);
  } catch {
    return {};
  }
  const parsed = transportsColumn.safeParse(value);
  return parsed.success ? { transports: parsed.data } : {};
}

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
