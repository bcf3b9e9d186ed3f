// Accounting for a single instance: plain counters in memory, checked and updated synchronously, so two
// concurrent requests can never both take the last of a balance.
import type { AccountLimits, Accounting, AccountingStore, Reservation } from './accounting.ts';

interface Counter { value: number; reserved: number }

export function createMemoryAccounting(store: AccountingStore): Accounting {
  const wallets = new Map<number, Counter>();
  const keys = new Map<number, Counter>();
  // Concurrent first sights of a wallet share one load.
  const loading = new Map<string, Promise<Counter>>();
  // Wallet changes written to the database right now (grants), per user, and a count of all that began: a
  // first load that overlapped one reads again, so the change is counted by the load or by changeWallet,
  // never by both (issue 10: a grant counted twice when the wallet was not loaded yet).
  const changing = new Map<number, Promise<unknown>>();
  const changesBegun = new Map<number, number>();

  const loadWallet = async (userId: number): Promise<number> => {
    for (;;) {
      await changing.get(userId)?.catch(() => {});
      const seen = changesBegun.get(userId) ?? 0;
      const value = await store.loadBalance(userId);
      if ((changesBegun.get(userId) ?? 0) === seen && !changing.has(userId)) return value;
    }
  };

  const counter = async (map: Map<number, Counter>, kind: string, id: number, load: (id: number) => Promise<number>): Promise<Counter> => {
    const known = map.get(id);
    if (known) return known;
    const tag = `${kind}:${id}`;
    let pending = loading.get(tag);
    if (!pending) {
      pending = load(id).then((value) => {
        const created = map.get(id) ?? { value, reserved: 0 };
        map.set(id, created);
        loading.delete(tag);
        return created;
      }, (error: unknown) => {
        loading.delete(tag);
        throw error;
      });
      loading.set(tag, pending);
    }
    return pending;
  };
  const wallet = (userId: number) => counter(wallets, 'wallet', userId, loadWallet);
  const key = (keyId: number) => counter(keys, 'key', keyId, store.loadKeyUsed);

  return {
    async reserve(limits: AccountLimits, estimate: number): Promise<Reservation | null> {
      const w = wallets.get(limits.userId) ?? await wallet(limits.userId);
      const k = keys.get(limits.keyId) ?? await key(limits.keyId);
      // Check and take in one synchronous step: no await between them.
      if (w.value - w.reserved < estimate || w.value - w.reserved <= 0) return null;
      if (limits.keyQuotaMicros !== null && (k.value + k.reserved + estimate > limits.keyQuotaMicros || k.value + k.reserved >= limits.keyQuotaMicros)) return null;
      w.reserved += estimate;
      k.reserved += estimate;
      return { userId: limits.userId, keyId: limits.keyId, amountMicros: estimate };
    },
    async settle(reservation, cost) {
      const w = wallets.get(reservation.userId);
      const k = keys.get(reservation.keyId);
      if (w) {
        w.reserved -= reservation.amountMicros;
        w.value -= cost;
      }
      if (k) {
        k.reserved -= reservation.amountMicros;
        k.value += cost;
      }
    },
    async changeWallet(userId, amount, write) {
      changesBegun.set(userId, (changesBegun.get(userId) ?? 0) + 1);
      const previous = changing.get(userId) ?? Promise.resolve();
      const done = previous.catch(() => {}).then(write);
      changing.set(userId, done);
      try {
        await done;
        // Loaded before the change began: add it. Not loaded: the first load reads it from the database.
        const loaded = wallets.get(userId);
        if (loaded) loaded.value += amount;
      } finally {
        if (changing.get(userId) === done) changing.delete(userId);
      }
    },
    // One instance: the counters already hold every settled charge, written or not.
    writeCharges: (_charges, write) => write(),
    async balance(userId) {
      return (await wallet(userId)).value;
    },
    async keyUsed(keyId) {
      return (await key(keyId)).value;
    },
    async forget({ userId, keyId }) {
      if (userId !== undefined) wallets.delete(userId);
      if (keyId !== undefined) keys.delete(keyId);
    },
    async close() {},
  };
}
