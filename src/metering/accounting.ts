// Money and quota in flight: before a call the gateway reserves its estimated cost against the key's quota
// and the owner's wallet; after it, the reservation is settled at the real cost. Reservations are checked
// and taken atomically, so concurrent calls can never together spend more than was there, except by the
// amount a call's real cost exceeds its estimate.
// Two implementations: in memory (one instance) and in Redis (several instances share the counters).
import type { CapHold, MemberCapRef } from './member-caps.ts';

export interface Reservation {
  userId: number;
  keyId: number;
  amountMicros: number;
  /** Set by accountings that track reservations one by one (Redis), so an unsettled one can expire. */
  id?: string;
  /** The organisation member's cap held with it (src/metering/capped-accounting.ts). */
  capHold?: CapHold;
}

export interface AccountLimits {
  userId: number;
  keyId: number;
  /** The key's own quota in micro-USD, or null for none. */
  keyQuotaMicros: number | null;
  /** An organisation key's member cap for the month, held with the wallet (null or absent: none). */
  memberCap?: MemberCapRef | null;
}

export interface Accounting {
  /** Reserves the estimate, or returns null when the wallet or the key's quota cannot cover it. */
  reserve(limits: AccountLimits, estimateMicros: number): Promise<Reservation | null>;
  /** Releases the reservation and charges the real cost (0 for a failed call). */
  settle(reservation: Reservation, costMicros: number): Promise<void>;
  /**
   * Runs `write`, the database transaction that moves a wallet by `amountMicros` (a grant, a top-up, a
   * refund: the ledger row and the balance), and moves the live balance by exactly that amount once, however
   * it interleaves with a first load of that wallet from the database.
   */
  changeWallet(userId: number, amountMicros: number, write: () => Promise<void>): Promise<void>;
  /**
   * Runs `write`, the database write of a metering batch holding these settled charges, so the live counters
   * know which charges the database now holds (several instances: docs/decisions/0004). A write that fails
   * after writing only the first n charges says so with an error whose `done` is n.
   */
  writeCharges(charges: DurableCharge[], write: () => Promise<void>): Promise<void>;
  /** The wallet's balance, less nothing reserved: what the ledger will say once written. */
  balance(userId: number): Promise<number>;
  /** What the key has spent so far. */
  keyUsed(keyId: number): Promise<number>;
  /** Forgets a cached wallet or key so the next use reloads it (after an admin changes it in the database). */
  forget(scope: { userId?: number; keyId?: number }): Promise<void>;
  close(): Promise<void>;
  /** What a member has spent this month against their cap (present when caps are enforced). */
  memberCapSpent?(cap: MemberCapRef): Promise<number>;
}

export interface DurableCharge {
  userId: number | null;
  keyId: number | null;
  chargeMicros: number;
  /** The reservation the charge settled, or null (a call admitted without one). */
  reservation: Reservation | null;
}

/** Reads the stored starting points; only called the first time a wallet or key is seen. */
export interface AccountingStore {
  loadBalance(userId: number): Promise<number>;
  loadKeyUsed(keyId: number): Promise<number>;
}
