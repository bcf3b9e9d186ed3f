// Monthly spending caps of organisation members (issue 34): what one member's organisation keys may spend
// per calendar month (UTC). Like a key's quota, a cap is held at admission (the estimate reserved, checked
// and taken in one step) and settled at the real cost, in memory or in Redis; the month's spend is read
// from the usage log once per member and month, never per request.
export interface MemberCapRef {
  organisationId: number;
  memberUserId: number;
  walletUserId: number;
  capMicros: number;
}

export interface CapHold {
  counter: string;
  amountMicros: number;
  /** Set by the Redis implementation: the reservation's member in its sorted set. */
  member?: string;
}

export interface MemberCaps {
  /** Holds the estimate against the member's cap for this month, or null when the cap cannot cover it. */
  reserve(cap: MemberCapRef, estimateMicros: number, now?: number): Promise<CapHold | null>;
  /** Releases the hold and counts the real cost (0 for a failed call, or a call the wallet refused). */
  settle(hold: CapHold, costMicros: number): Promise<void>;
  /** What the member has spent this month, as the counter knows it. */
  spent(cap: MemberCapRef, now?: number): Promise<number>;
}

/** Reads what a member's organisation keys cost since the start of the month (the usage log). */
export type MonthSpendLoader = (walletUserId: number, memberUserId: number, since: number) => Promise<number>;

export function monthStart(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

// The month's label is computed again only when a call falls outside the month last seen.
let month = { start: 0, end: 0, label: '' };

export function capCounterName(cap: MemberCapRef, now: number): string {
  if (now < month.start || now >= month.end) {
    const date = new Date(now);
    month = { start: monthStart(now), end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1), label: `${date.getUTCFullYear()}-${date.getUTCMonth() + 1}` };
  }
  return `${cap.organisationId}.${cap.memberUserId}.${month.label}`;
}

export function createMemoryMemberCaps(load: MonthSpendLoader): MemberCaps {
  const counters = new Map<string, { spent: number; reserved: number }>();
  const loading = new Map<string, Promise<void>>();
  const counter = async (cap: MemberCapRef, now: number, name = capCounterName(cap, now)) => {
    let known = counters.get(name);
    if (known) return known;
    let pending = loading.get(name);
    if (!pending) {
      // A new month's counter: last month's are done with.
      const month = name.slice(name.lastIndexOf('.'));
      for (const old of counters.keys()) if (!old.endsWith(month)) counters.delete(old);
      pending = load(cap.walletUserId, cap.memberUserId, monthStart(now)).then((spent) => {
        if (!counters.has(name)) counters.set(name, { spent, reserved: 0 });
      }).finally(() => loading.delete(name));
      loading.set(name, pending);
    }
    await pending;
    known = counters.get(name)!;
    return known;
  };
  return {
    async reserve(cap, estimate, now = Date.now()) {
      const name = capCounterName(cap, now);
      const c = counters.get(name) ?? await counter(cap, now, name);
      // Check and take in one synchronous step, as the wallet does.
      if (c.spent + c.reserved >= cap.capMicros || c.spent + c.reserved + estimate > cap.capMicros) return null;
      c.reserved += estimate;
      return { counter: name, amountMicros: estimate };
    },
    async settle(hold, cost) {
      const c = counters.get(hold.counter);
      if (!c) return;
      c.reserved -= hold.amountMicros;
      c.spent += cost;
    },
    async spent(cap, now = Date.now()) {
      return (await counter(cap, now)).spent;
    },
  };
}
