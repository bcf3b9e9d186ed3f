// Money an administrator adds to (or removes from) a wallet: a ledger row and the cached balance move in
// one transaction, and the live accounting moves by exactly that amount once.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Accounting } from '../metering/accounting.ts';
import { boundedUsdToMicros, checkBalanceBound } from '../metering/money-bounds.ts';
import { notFound } from './admin-keys.ts';
import { sharedStateUnavailable } from '../gateway-errors.ts';

/** Grants (or, negative, debits) `amountUsd`; 400 naming `amount_usd` when out of bounds. Returns the balance. */
export async function grantToWallet(db: Kysely<DatabaseSchema>, accounting: Accounting, userId: number, amountUsd: number, note: string | null): Promise<number> {
  const amountMicros = boundedUsdToMicros(amountUsd, 'amount_usd', { allowNegative: true, allowZero: false });
  const exists = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!exists) throw notFound(`User ${userId}`);
  await accounting.changeWallet(userId, amountMicros, async () => {
    await db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound(`User ${userId}`);
      checkBalanceBound(user.balance_micros + amountMicros, 'amount_usd');
      await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '+', amountMicros), updated_at: Date.now() })).where('id', '=', userId).execute();
      await trx.insertInto('wallet_ledger').values({ user_id: userId, created_at: Date.now(), kind: 'grant', amount_micros: amountMicros, reference: null, note }).execute();
    });
  });
  // The grant is written; if the live counters cannot be read right now (Redis away), say so with a 503
  // rather than a 500: the balance catches up by itself once Redis answers.
  return accounting.balance(userId).catch((error: unknown) => {
    throw sharedStateUnavailable(error);
  });
}
