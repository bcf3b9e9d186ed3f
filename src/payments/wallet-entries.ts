// A money movement that is not a metered call (a top-up, a refund, a redeemed code): the ledger row and
// the cached balance change in one transaction, so the balance always equals the ledger's sum, and the
// live accounting (memory or Redis) follows through Accounting.changeWallet, which also keeps a wallet
// loaded at the same moment from counting the change twice (docs/decisions/0004).
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { WalletLedgerTable } from '../db/schema.ts';
import { appendClaimedLedgerEntry } from '../db/repositories/wallet-ledger.ts';
import type { Accounting } from '../metering/accounting.ts';

interface WalletEntry {
  userId: number;
  /** Signed micro-USD: positive adds to the balance. */
  amountMicros: number;
  kind: WalletLedgerTable['kind'];
  /** Unique per kind: the database refuses a second row for the same top-up, refund or code. */
  reference: string;
  note: string | null;
}

/** Thrown inside the transaction when its guard finds the movement already applied (a replay). */
class AlreadyApplied extends Error {}

/**
 * Runs `claim` (the state guard: a conditional update that answers whether this delivery is the one that
 * applies) and, when it claims, writes the entry, all in one transaction. Returns false for a replay: then
 * nothing is written and the live balance does not move.
 */
export async function applyWalletEntry(db: Db, accounting: Accounting, entry: WalletEntry, claim: (trx: Db) => Promise<boolean>): Promise<boolean> {
  try {
    await accounting.changeWallet(entry.userId, entry.amountMicros, async () => {
      const claimed = await appendClaimedLedgerEntry(db, { user_id: entry.userId, kind: entry.kind, amount_micros: entry.amountMicros, reference: entry.reference, note: entry.note }, claim);
      // Thrown so that changeWallet leaves the live balance as it is.
      if (!claimed) throw new AlreadyApplied();
    });
    return true;
  } catch (error) {
    if (error instanceof AlreadyApplied) return false;
    throw error;
  }
}
