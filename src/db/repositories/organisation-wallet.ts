// Reads of an organisation's wallet account: its card payments (the ledger is read by src/accounts/wallet-reader.ts).
import type { PaymentRow } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

export async function listWalletPayments(db: Db, walletUserId: number, limit: number, before?: number): Promise<PaymentRow[]> {
  let query = db.selectFrom('payments').selectAll().where('user_id', '=', walletUserId).orderBy('id', 'desc').limit(limit);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.execute();
}
