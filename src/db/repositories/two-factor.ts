// Two-factor sign-in's columns on users and its recovery codes (src/accounts/two-factor.ts decides; only
// hashes of the recovery codes are stored). Turning it on or off changes both in one transaction.
import { inTransaction, type Db } from './repository-helpers.ts';

export async function setPendingTotpSecret(db: Db, userId: number, encryptedSecret: string, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ totp_pending_encrypted: encryptedSecret, updated_at: now }).where('id', '=', userId).execute();
}

/** The pending secret becomes the secret, at `step`, and the recovery codes are replaced by these hashes. */
export async function enableTotp(db: Db, userId: number, encryptedSecret: string, step: number, recoveryCodeHashes: readonly string[], now = Date.now()): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.updateTable('users').set({ totp_secret_encrypted: encryptedSecret, totp_pending_encrypted: null, totp_last_step: step, updated_at: now }).where('id', '=', userId).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.insertInto('recovery_codes').values(recoveryCodeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, used_at: null }))).execute();
  });
}

export async function clearTotp(db: Db, userId: number, now = Date.now()): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.updateTable('users').set({ totp_secret_encrypted: null, totp_pending_encrypted: null, totp_last_step: null, updated_at: now }).where('id', '=', userId).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  });
}

/** Records `step` as used if it is later than the last one used; false when it is not (a replayed code). */
export async function advanceTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const moved = await db.updateTable('users').set({ totp_last_step: step })
    .where('id', '=', userId).where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)])).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Spends an unused recovery code of the user; false when there is none with that hash. */
export async function useRecoveryCode(db: Db, userId: number, codeHash: string, now = Date.now()): Promise<boolean> {
  const used = await db.updateTable('recovery_codes').set({ used_at: now })
    .where('user_id', '=', userId).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
