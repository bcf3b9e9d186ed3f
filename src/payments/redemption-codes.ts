// Redemption codes, the offline way to fund a wallet: an admin creates codes worth a fixed amount (shown
// once; stored as SHA-256 hashes), a user redeems one. Redeeming is a conditional update of the code's
// row inside the ledger's transaction, so a code pays out once even when two tabs or two instances
// redeem it at the same moment.
import { createHash, randomBytes } from 'node:crypto';
import { invalidRequest } from '../gateway-errors.ts';
import type { PaymentsDeps } from './payments-deps.ts';
import { applyWalletEntry } from './wallet-entries.ts';

const hashCode = (code: string) => createHash('sha256').update(code.trim()).digest('hex');

/** 128 random bits as 22 base64url characters after a readable `rc-` prefix. */
const newCode = () => `rc-${randomBytes(16).toString('base64url')}`;

export const invalidCode = () => invalidRequest('This redemption code is not valid or has already been used.', 'code', 'invalid_redemption_code');

export async function createRedemptionCodes(deps: Pick<PaymentsDeps, 'db'>, input: { count: number; amountMicros: number; note: string | null; createdBy: number | null }): Promise<{ codes: string[]; ids: number[] }> {
  const now = Date.now();
  const codes = Array.from({ length: input.count }, newCode);
  const rows = codes.map((code) => ({ code_hash: hashCode(code), code_prefix: code.slice(0, 7), amount_micros: input.amountMicros, note: input.note, created_by: input.createdBy, created_at: now, redeemed_by: null, redeemed_at: null }));
  const inserted = await deps.db.insertInto('redemption_codes').values(rows).returning('id').execute();
  return { codes, ids: inserted.map((row) => Number(row.id)) };
}

export async function redeemCode(deps: PaymentsDeps, userId: number, code: string): Promise<{ amountMicros: number }> {
  const row = await deps.db.selectFrom('redemption_codes').select(['id', 'amount_micros', 'redeemed_at']).where('code_hash', '=', hashCode(code)).executeTakeFirst();
  // Unknown and already used codes get the same answer: the answer tells nothing about other codes.
  if (!row || row.redeemed_at !== null) throw invalidCode();
  const amountMicros = Number(row.amount_micros);
  const now = Date.now();
  const redeemed = await applyWalletEntry(deps.db, deps.accounting, { userId, amountMicros, kind: 'redemption', reference: `code:${row.id}`, note: 'Redemption code' }, async (trx) => {
    const claimed = await trx.updateTable('redemption_codes').set({ redeemed_by: userId, redeemed_at: now }).where('id', '=', row.id).where('redeemed_at', 'is', null).executeTakeFirst();
    return Number(claimed.numUpdatedRows) > 0;
  });
  if (!redeemed) throw invalidCode();
  return { amountMicros };
}

export async function listRedemptionCodes(deps: Pick<PaymentsDeps, 'db'>, limit = 200) {
  const rows = await deps.db.selectFrom('redemption_codes').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    prefix: row.code_prefix,
    amount_usd: Number(row.amount_micros) / 1_000_000,
    note: row.note,
    created_at: new Date(Number(row.created_at)).toISOString(),
    redeemed_by: row.redeemed_by === null ? null : Number(row.redeemed_by),
    redeemed_at: row.redeemed_at === null ? null : new Date(Number(row.redeemed_at)).toISOString(),
  }));
}
