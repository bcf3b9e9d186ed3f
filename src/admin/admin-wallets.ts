// Money an administrator adds to (or removes from) a wallet: a ledger row and the cached balance move in
// one transaction, then the live accounting learns of it.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Accounting } from '../metering/accounting.ts';
import { notFound } from './admin-keys.ts';

export async function grantToWallet(db: Kysely<DatabaseSchema>, accounting: Accounting, userId: number, amountMicros: number, note: string | null): Promise<number> {
  // Load the live wallet first: a wallet loaded only after the database row moved would already include
  // the grant, and the credit below would count it twice.
  await accounting.balance(userId);
  await db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '+', amountMicros), updated_at: Date.now() })).where('id', '=', userId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound(`User ${userId}`);
    await trx.insertInto('wallet_ledger').values({ user_id: userId, created_at: Date.now(), kind: 'grant', amount_micros: amountMicros, reference: null, note }).execute();
  });
  await accounting.credit(userId, amountMicros);
  return accounting.balance(userId);
}
