// Accounting with organisation members' monthly caps: a call on an organisation key whose member has a cap
// holds the estimate against the cap first, then against the wallet and the key's quota; either refusal
// releases what was held. Settling settles both. Calls without a cap go straight to the wallet: one more
// plain function call, no extra promise (measured in docs/metering.md).
import type { Accounting, AccountLimits, Reservation } from './accounting.ts';
import type { MemberCaps } from './member-caps.ts';

export function withMemberCaps<A extends Accounting>(accounting: A, caps: MemberCaps): A {
  const reserveWithCap = async (limits: AccountLimits, estimate: number): Promise<Reservation | null> => {
    const hold = await caps.reserve(limits.memberCap!, estimate);
    if (!hold) return null;
    let reservation: Reservation | null;
    try {
      reservation = await accounting.reserve(limits, estimate);
    } catch (error) {
      await caps.settle(hold, 0).catch(() => {});
      throw error;
    }
    if (!reservation) {
      await caps.settle(hold, 0);
      return null;
    }
    reservation.capHold = hold;
    return reservation;
  };
  const settleWithCap = async (reservation: Reservation, cost: number): Promise<void> => {
    try {
      await accounting.settle(reservation, cost);
    } finally {
      await caps.settle(reservation.capHold!, cost);
    }
  };
  return {
    ...accounting,
    reserve: (limits: AccountLimits, estimate: number) => (limits.memberCap ? reserveWithCap(limits, estimate) : accounting.reserve(limits, estimate)),
    settle: (reservation: Reservation, cost: number) => (reservation.capHold ? settleWithCap(reservation, cost) : accounting.settle(reservation, cost)),
    memberCapSpent: (cap) => caps.spent(cap),
  };
}
