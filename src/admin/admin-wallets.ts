// Money an administrator adds to (or removes from) a wallet: a ledger row and the cached balance move in
// one transaction, and the live accounting moves by exactly that amount once.
import type { Db } from '../db/repositories/repository-helpers.ts';
import { findUserById } from '../db/repositories/users.ts';
import { writeGrant } from '../db/repositories/wallet-ledger.ts';
import type { Accounting } from '../metering/accounting.ts';
import { boundedUsdToMicros, checkBalanceBound } from '../metering/money-bounds.ts';
import { notFound } from './admin-keys.ts';
import { sharedStateUnavailable } from '../gateway-errors.ts';

/** Grants (or, negative, debits) `amountUsd`; 400 naming `amount_usd` when out of bounds. Returns the balance. */
export async function grantToWallet(db: Db, accounting: Accounting, userId: number, amountUsd: number, note: string | null): Promise<number> {
  const amountMicros = boundedUsdToMicros(amountUsd, 'amount_usd', { allowNegative: true, allowZero: false });
  const exists = await findUserById(db, userId);
  if (!exists) throw notFound(`User ${userId}`);
  await accounting.changeWallet(userId, amountMicros, async () => {
    if (!(await writeGrant(db, userId, amountMicros, note, (balanceAfter) => checkBalanceBound(balanceAfter, 'amount_usd')))) throw notFound(`User ${userId}`);
  });
  // The grant is written; if the live counters cannot be read right now (Redis away), say so with a 503
  // rather than a 500: the balance catches up by itself once Redis answers.
  return accounting.balance(userId).catch((error: unknown) => {
    throw sharedStateUnavailable(error);
  });
}
