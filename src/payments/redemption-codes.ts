// Redemption codes, the offline way to fund a wallet: an admin creates codes worth a fixed amount (shown
// once; stored as SHA-256 hashes), a user redeems one. Redeeming is a conditional update of the code's
// row inside the ledger's transaction, so a code pays out once even when two tabs or two instances
// redeem it at the same moment.
import { createHash, randomBytes } from 'node:crypto';
import { apiNotFound, conflict, invalidRequest } from '../gateway-errors.ts';
import type { PaymentsDeps } from './payments-deps.ts';
import { applyWalletEntry } from './wallet-entries.ts';
import { claimRedemptionCode, findRedemptionCodeByHash, insertRedemptionCodes, listRedemptionCodeRows, revokeUnusedRedemptionCode } from '../db/repositories/redemption-codes.ts';

const hashCode = (code: string) => createHash('sha256').update(code.trim()).digest('hex');

/** 128 random bits as 22 base64url characters after a readable `rc-` prefix. */
const newCode = () => `rc-${randomBytes(16).toString('base64url')}`;

const invalidCode = () => invalidRequest('This redemption code is not valid or has already been used.', 'code', 'invalid_redemption_code');

export async function createRedemptionCodes(deps: Pick<PaymentsDeps, 'db'>, input: { count: number; amountMicros: number; note: string | null; createdBy: number | null }): Promise<{ codes: string[]; ids: number[] }> {
  const now = Date.now();
  const codes = Array.from({ length: input.count }, newCode);
  const rows = codes.map((code) => ({ code_hash: hashCode(code), code_prefix: code.slice(0, 7), amount_micros: input.amountMicros, note: input.note, created_by: input.createdBy, created_at: now, redeemed_by: null, redeemed_at: null }));
  return { codes, ids: await insertRedemptionCodes(deps.db, rows) };
}

export async function redeemCode(deps: PaymentsDeps, userId: number, code: string): Promise<{ amountMicros: number }> {
  const row = await findRedemptionCodeByHash(deps.db, hashCode(code));
  // Unknown, used and revoked codes get the same answer: the answer tells nothing about other codes.
  if (!row || row.redeemed_at !== null || row.revoked_at !== null) throw invalidCode();
  const amountMicros = Number(row.amount_micros);
  const now = Date.now();
  const redeemed = await applyWalletEntry(deps.db, deps.accounting, { userId, amountMicros, kind: 'redemption', reference: `code:${row.id}`, note: 'Redemption code' }, (trx) => claimRedemptionCode(trx, row.id, userId, now));
  if (!redeemed) throw invalidCode();
  return { amountMicros };
}

type CodeState = 'unused' | 'redeemed' | 'revoked';

/** Codes, newest first, a page at a time (`before`: the last id of the previous page), with who redeemed them. */
export async function listRedemptionCodes(deps: Pick<PaymentsDeps, 'db'>, page: { limit: number; before?: number | undefined; state?: CodeState | undefined }) {
  const rows = await listRedemptionCodeRows(deps.db, page.limit + 1, page.before, page.state);
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const time = (at: number | null) => (at === null ? null : new Date(Number(at)).toISOString());
  return {
    data: shown.map((row) => ({
      id: Number(row.id),
      prefix: row.code_prefix,
      amount_usd: Number(row.amount_micros) / 1_000_000,
      note: row.note,
      state: (row.revoked_at !== null ? 'revoked' : row.redeemed_at !== null ? 'redeemed' : 'unused') as CodeState,
      created_at: time(row.created_at)!,
      redeemed_by: row.redeemed_by === null ? null : Number(row.redeemed_by),
      redeemed_by_email: row.redeemed_by_email ?? null,
      redeemed_by_name: row.redeemed_by_name ?? null,
      redeemed_at: time(row.redeemed_at),
      revoked_at: time(row.revoked_at),
    })),
    next_cursor: more ? String(shown.at(-1)!.id) : null,
  };
}

/**
 * Revokes an unused code: from now on it is refused like an unknown one. One conditional update, so a
 * code being redeemed at the same moment is either redeemed or revoked, never both.
 */
export async function revokeRedemptionCode(deps: Pick<PaymentsDeps, 'db'>, id: number, revokedBy: number) {
  const { revoked, row } = await revokeUnusedRedemptionCode(deps.db, id, revokedBy);
  if (!row) throw apiNotFound('Redemption code');
  if (!revoked) {
    if (row.redeemed_at !== null) throw conflict('This code was already redeemed; it cannot be revoked.', 'id', 'code_redeemed');
    throw conflict('This code is already revoked.', 'id', 'code_revoked');
  }
  return { id: Number(row.id), prefix: row.code_prefix, amount_usd: Number(row.amount_micros) / 1_000_000, note: row.note };
}
