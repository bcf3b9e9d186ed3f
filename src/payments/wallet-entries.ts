// A money movement that is not a metered call (a top-up, a refund, a redeemed code): the ledger row and
// the cached balance change in the caller's transaction, so the balance always equals the ledger's sum.
// The live accounting (memory or Redis) learns of it after the commit.
import type { Transaction } from 'kysely';
import type { DatabaseSchema, WalletLedgerTable } from '../db/schema.ts';
import type { Accounting } from '../metering/accounting.ts';

export interface WalletEntry {
  userId: number;
  /** Signed micro-USD: positive adds to the balance. */
  amountMicros: number;
  kind: WalletLedgerTable['kind'];
  /** Unique per kind: the database refuses a second row for the same top-up, refund or code. */
  reference: string;
  note: string | null;
}

export async function writeWalletEntry(trx: Transaction<DatabaseSchema>, entry: WalletEntry, now = Date.now()): Promise<void> {
  await trx.insertInto('wallet_ledger').values({ user_id: entry.userId, created_at: now, kind: entry.kind, amount_micros: entry.amountMicros, reference: entry.reference, note: entry.note }).execute();
  await trx.updateTable('users').set((eb) => ({ balance_micros: eb('balance_micros', '+', entry.amountMicros), updated_at: now })).where('id', '=', entry.userId).execute();
}

/** After the commit: the live balance follows. A failure here is repaired by the accounting's reload. */
export async function announceWalletEntry(accounting: Accounting, entry: Pick<WalletEntry, 'userId' | 'amountMicros'>, log: (error: unknown) => void): Promise<void> {
  try {
    await accounting.credit(entry.userId, entry.amountMicros);
  } catch (error) {
    log(error);
    await accounting.forget({ userId: entry.userId }).catch(() => undefined);
  }
}
