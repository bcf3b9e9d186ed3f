// Accounting shared by several instances: each wallet and key is a Redis hash {value} with a sorted set of
// live reservations, and every check-and-take runs as one Lua script, so instances cannot together overspend.
// A counter missing from Redis (first use, or Redis restarted) is rebuilt from the database by the wallet
// sync (src/metering/redis-wallet-sync.ts), which also repairs whatever a failed Redis step left behind.
import { randomUUID } from 'node:crypto';
import type { RedisContext } from '../cluster/redis-connection.ts';
import type { AccountLimits, Accounting, AccountingStore, DurableCharge, Reservation } from './accounting.ts';
import { reserveScript, settleScript } from './redis-accounting-scripts.ts';
import { createWalletSync, type CounterField, type WalletSync } from './redis-wallet-sync.ts';

const DEFAULT_RESERVATION_TTL_MS = 3_600_000;
const DEFAULT_INSTANCE_TTL_MS = 15_000;

export interface RedisAccounting extends Accounting {
  readonly sync: WalletSync;
}

export async function createRedisAccounting(context: RedisContext, store: AccountingStore, reservationTtlMs = DEFAULT_RESERVATION_TTL_MS, instanceTtlMs = DEFAULT_INSTANCE_TTL_MS): Promise<RedisAccounting> {
  const sync = await createWalletSync(context, store, instanceTtlMs);
  const walletKey = (userId: number) => `${context.prefix}wallet:${userId}`;
  const quotaKey = (keyId: number) => `${context.prefix}keyspend:${keyId}`;
  const walletReservations = (userId: number) => `${context.prefix}wallet-resv:${userId}`;
  const keyReservations = (keyId: number) => `${context.prefix}key-resv:${keyId}`;
  const member = (reservation: Reservation) => `${reservation.id}:${reservation.amountMicros}`;
  const fieldsOf = (reservation: { userId: number; keyId: number }): CounterField[] => [`w:${reservation.userId}`, `k:${reservation.keyId}`];
  // Charges settled but not yet written to the database: whether Redis took each one, by member.
  const settling = new Map<string, Promise<boolean>>();
  const read = async (hash: string, field: CounterField) => {
    const value = await context.redis.hget(hash, 'value');
    return value === null ? sync.reconcile(field, true) : Number(value);
  };

  return {
    sync,
    async reserve(limits: AccountLimits, estimate: number): Promise<Reservation | null> {
      const reservation: Reservation = { userId: limits.userId, keyId: limits.keyId, amountMicros: estimate, id: `${sync.instanceId}.${randomUUID()}` };
      const keys = [walletKey(limits.userId), quotaKey(limits.keyId), walletReservations(limits.userId), keyReservations(limits.keyId)];
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = Date.now();
        const args = [String(estimate), String(limits.keyQuotaMicros ?? -1), now, now + reservationTtlMs, member(reservation)];
        const outcome = Number(await context.run(reserveScript, keys, args));
        if (outcome === 1) return reservation;
        if (outcome === 0 || outcome === -1) return null;
        if (outcome === -2) await sync.reconcile(`w:${limits.userId}`, true);
        if (outcome === -3) await sync.reconcile(`k:${limits.keyId}`, true);
      }
      return null;
    },
    async settle(reservation, cost) {
      // Calls metered without a reservation of their own (realtime responses) get an id here.
      reservation.id ??= `${sync.instanceId}.${randomUUID()}`;
      const keys = [walletKey(reservation.userId), quotaKey(reservation.keyId), walletReservations(reservation.userId), keyReservations(reservation.keyId), sync.pendingKey];
      const record = `${reservation.userId} ${reservation.keyId} ${cost}`;
      const applied = context.run(settleScript, keys, [member(reservation), String(cost), String(-cost), record]).then(
        () => {
          if (cost !== 0) sync.notePending(member(reservation), record);
          return true;
        },
        (error: unknown) => {
          // Redis did not answer: the reservation is released later, and the counters are rebuilt from the
          // database once the charge is written there (writeCharges), so the call is charged exactly once.
          sync.repairLater([], { userId: reservation.userId, keyId: reservation.keyId, member: member(reservation) });
          throw error;
        },
      );
      if (cost !== 0) settling.set(member(reservation), applied.catch(() => false));
      await applied;
    },
    async writeCharges(charges: DurableCharge[], write) {
      const charged = charges.filter((charge) => charge.chargeMicros !== 0 && charge.userId !== null && charge.keyId !== null);
      const fields = [...new Set(charged.flatMap((charge) => fieldsOf({ userId: charge.userId!, keyId: charge.keyId! })))];
      let failure: unknown = null;
      let durable = charged;
      const took = new Map<string, boolean>();
      await sync.aroundWrite(fields, async () => {
        try {
          await write();
        } catch (error) {
          // A write that stopped part-way names how many leading entries it did write (`done`): those are
          // durable; the rest will come again with the next flush.
          failure = error;
          const done = typeof (error as { done?: unknown })?.done === 'number' ? (error as { done: number }).done : 0;
          const durableCharges = new Set(charges.slice(0, done));
          durable = charged.filter((charge) => durableCharges.has(charge));
        }
        // Every settle of these charges has run (or failed) before their pending records are forgotten.
        const members = durable.flatMap((charge) => (charge.reservation?.id ? [member(charge.reservation)] : []));
        const outcomes = await Promise.all(members.map((name) => settling.get(name) ?? Promise.resolve(true)));
        members.forEach((name, i) => took.set(name, outcomes[i]!));
      }, () => ({ forgetPending: [...took.keys()] }));
      for (const name of took.keys()) {
        settling.delete(name);
        sync.notePending(name, null);
      }
      // Charges Redis never took (settle failed, or no reservation): now in the database, so rebuild.
      const missed = durable.filter((charge) => !charge.reservation?.id || took.get(member(charge.reservation)) === false);
      for (const charge of missed) sync.repairLater(fieldsOf({ userId: charge.userId!, keyId: charge.keyId! }));
      if (failure !== null) throw failure;
    },
    async changeWallet(userId, amount, write) {
      await sync.aroundWrite([`w:${userId}`], write, () => ({ credit: new Map([[userId, amount]]) }));
    },
    balance: (userId) => read(walletKey(userId), `w:${userId}`),
    keyUsed: (keyId) => read(quotaKey(keyId), `k:${keyId}`),
    async forget({ userId, keyId }) {
      if (userId !== undefined) await context.redis.del(walletKey(userId));
      if (keyId !== undefined) await context.redis.del(quotaKey(keyId));
    },
    async close() {
      await sync.close();
    },
  };
}
