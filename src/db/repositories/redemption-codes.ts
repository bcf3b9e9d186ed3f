// Redemption codes' rows (src/payments/redemption-codes.ts): only hashes of the codes are stored. Redeeming
// and revoking are conditional updates, so a code is redeemed or revoked once, never both.
import type { Insertable, Selectable } from 'kysely';
import type { RedemptionCodesTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

type RedemptionCodeState = 'unused' | 'redeemed' | 'revoked';

export async function insertRedemptionCodes(db: Db, rows: readonly Insertable<RedemptionCodesTable>[]): Promise<number[]> {
  const inserted = await db.insertInto('redemption_codes').values([...rows]).returning('id').execute();
  return inserted.map((row) => Number(row.id));
}

export async function findRedemptionCodeByHash(db: Db, codeHash: string) {
  return db.selectFrom('redemption_codes').select(['id', 'amount_micros', 'redeemed_at', 'revoked_at']).where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Marks an unused, unrevoked code redeemed by the user; true when this call did (run it in the ledger's transaction). */
export async function claimRedemptionCode(db: Db, id: number, userId: number, now: number): Promise<boolean> {
  const claimed = await db.updateTable('redemption_codes').set({ redeemed_by: userId, redeemed_at: now }).where('id', '=', id).where('redeemed_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Codes with an id below `beforeId` (all when undefined), in a state or all, newest first, with who redeemed them. */
export async function listRedemptionCodeRows(db: Db, limit: number, beforeId: number | undefined, state: RedemptionCodeState | undefined) {
  let select = db.selectFrom('redemption_codes')
    .leftJoin('users as redeemer', 'redeemer.id', 'redemption_codes.redeemed_by')
    .selectAll('redemption_codes').select(['redeemer.email as redeemed_by_email', 'redeemer.name as redeemed_by_name'])
    .orderBy('redemption_codes.id', 'desc').limit(limit);
  if (beforeId !== undefined) select = select.where('redemption_codes.id', '<', beforeId);
  if (state === 'unused') select = select.where('redemption_codes.redeemed_at', 'is', null).where('redemption_codes.revoked_at', 'is', null);
  if (state === 'redeemed') select = select.where('redemption_codes.redeemed_at', 'is not', null);
  if (state === 'revoked') select = select.where('redemption_codes.revoked_at', 'is not', null);
  return select.execute();
}

/**
 * Revokes the code if it is unused (one conditional update), then reads it: `revoked` says whether this call
 * revoked it; the row is undefined when there is no such code.
 */
export async function revokeUnusedRedemptionCode(db: Db, id: number, revokedBy: number, now = Date.now()): Promise<{ revoked: boolean; row: Selectable<RedemptionCodesTable> | undefined }> {
  const revoked = await db.updateTable('redemption_codes').set({ revoked_at: now, revoked_by: revokedBy })
    .where('id', '=', id).where('redeemed_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  const row = await db.selectFrom('redemption_codes').selectAll().where('id', '=', id).executeTakeFirst();
  return { revoked: Number(revoked.numUpdatedRows) > 0, row };
}
