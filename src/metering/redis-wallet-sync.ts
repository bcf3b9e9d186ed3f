// Keeps Redis's wallets and key spends equal to the database (docs/decisions/0004-redis-wallet-reconciliation.md).
// Each instance registers itself with a heartbeat and notes in Redis the charges it has applied there but not
// yet written to the database ("pending"). A counter is then always rebuilt as
//   database value − pending charges of live instances        (wallets; + for key spends)
// whenever Redis lacks it (first use, eviction, Redis restart), after an instance died (its pending charges
// either reached the database or were lost with it: either way the database is right), and after any
// bookkeeping step failed (a settle Redis did not answer). A database write that moves a counter (a metering
// batch, a grant) bumps the counter's epoch and marks it busy first, so a rebuild that read the database
// around that write reads again instead of counting a charge twice or not at all.
import { randomBytes } from 'node:crypto';
import type { RedisContext } from '../cluster/redis-connection.ts';
import type { AccountingStore } from './accounting.ts';
import { applyScript, beginWriteScript, endWriteScript, probeScript, releaseScript } from './redis-accounting-scripts.ts';

export type CounterField = `w:${number}` | `k:${number}`;

export interface WalletSync {
  readonly instanceId: string;
  /** This instance's hash of pending charges (written by the settle script). */
  readonly pendingKey: string;
  /** Rebuilds a counter from the database; with onlyIfAbsent, returns the held value when Redis has one. */
  reconcile(field: CounterField, onlyIfAbsent: boolean): Promise<number>;
  /** Runs a database write that moves these counters (see the file comment). */
  /** `after` is read once `write` has succeeded: the pending records it made durable, the wallets to credit. */
  aroundWrite(fields: CounterField[], write: () => Promise<void>, after: () => { forgetPending?: string[]; credit?: Map<number, number> }): Promise<void>;
  /** Notes (or, with null, forgets) a pending record this instance wrote, see the mirror below. */
  notePending(member: string, record: string | null): void;
  /** A bookkeeping step failed: rebuild these counters once Redis answers, and let this reservation go. */
  repairLater(fields: CounterField[], release?: { userId: number; keyId: number; member: string }): void;
  /** Heartbeat, dead instances' counters, owed repairs; runs on a timer, callable at once (tests). */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

const MAX_RELEASES = 100_000;

export async function createWalletSync(context: RedisContext, store: AccountingStore, instanceTtlMs: number): Promise<WalletSync> {
  const { prefix, redis } = context;
  const instanceId = randomBytes(8).toString('hex');
  const instanceKey = `${prefix}inst:${instanceId}`;
  const pendingKey = `${prefix}inst-pending:${instanceId}`;
  const aliveKey = (id: string) => `${prefix}inst-alive:${id}`;
  const counterKeys = (field: CounterField) => {
    const id = field.slice(2);
    return field.startsWith('w:') ? [`${prefix}wallet:${id}`, `${prefix}wallet-resv:${id}`] : [`${prefix}keyspend:${id}`, `${prefix}key-resv:${id}`];
  };
  // Repairs owed while Redis was unreachable; in memory, bounded (a reservation not released expires anyway).
  const toReconcile = new Set<CounterField>();
  const releases: { userId: number; keyId: number; member: string }[] = [];
  const unfinished: { fields: CounterField[]; members: string[] }[] = [];

  // This instance's pending records, mirrored here: if its heartbeat ever lapsed (a stall longer than the
  // TTL), another instance may have taken it for dead and dropped its records; they are put back.
  const mirror = new Map<string, string>();
  let registered = false;

  const heartbeat = async () => {
    const lapsed = (await redis.set(aliveKey(instanceId), '1', 'PX', instanceTtlMs, 'GET')) === null;
    await redis.sadd(`${prefix}instances`, instanceId);
    if (lapsed && registered && mirror.size > 0) {
      await redis.hset(pendingKey, Object.fromEntries(mirror));
      for (const record of mirror.values()) {
        const [userId, keyId] = record.split(' ');
        toReconcile.add(`w:${Number(userId)}`).add(`k:${Number(keyId)}`);
      }
    }
    registered = true;
  };

  const reconcile = async (field: CounterField, onlyIfAbsent: boolean): Promise<number> => {
    const [hash, reservations] = counterKeys(field);
    const id = Number(field.slice(2));
    for (let attempt = 0; attempt < 50; attempt++) {
      const epoch = Number(await context.run(probeScript, [], [prefix, field]));
      if (epoch >= 0) {
        const stored = field.startsWith('w:') ? await store.loadBalance(id) : await store.loadKeyUsed(id);
        const value = await context.run(applyScript, [hash!, reservations!], [prefix, field, epoch, String(stored), field.startsWith('w:') ? -1 : 1, onlyIfAbsent ? '1' : '0']);
        if (value !== null) return Number(value);
      }
      // A live instance is writing this counter to the database: read again once it is done.
      await new Promise((resolve) => setTimeout(resolve, Math.min(5 + attempt * 5, 100)));
    }
    throw new Error(`could not rebuild ${field} from the database: it kept changing`);
  };

  const endWrite = (fields: CounterField[], members: string[], credit: Map<number, number>) => {
    const wallets = [...credit.keys()];
    return context.run(endWriteScript, [instanceKey, pendingKey, ...wallets.map((userId) => `${prefix}wallet:${userId}`)], [fields.length, ...fields, members.length, ...members, ...wallets.map((userId) => String(credit.get(userId)))]);
  };

  const repairLater: WalletSync['repairLater'] = (fields, release) => {
    for (const field of fields) toReconcile.add(field);
    if (release) {
      releases.push(release);
      if (releases.length > MAX_RELEASES) releases.shift();
    }
  };

  /** Instances whose heartbeat stopped: their counters are rebuilt, then their records dropped. */
  const sweepDeadInstances = async () => {
    for (const id of await redis.smembers(`${prefix}instances`)) {
      if (id === instanceId || (await redis.exists(aliveKey(id)))) continue;
      const records = await redis.hvals(`${prefix}inst-pending:${id}`);
      const fields = new Set<CounterField>();
      for (const record of records) {
        const [userId, keyId] = record.split(' ');
        fields.add(`w:${Number(userId)}`).add(`k:${Number(keyId)}`);
      }
      for (const field of fields) await reconcile(field, false);
      await redis.del(`${prefix}inst-pending:${id}`, `${prefix}inst:${id}`);
      await redis.srem(`${prefix}instances`, id);
    }
  };

  const maintain = async () => {
    await heartbeat();
    while (unfinished.length > 0) {
      const next = unfinished[0]!;
      await endWrite(next.fields, next.members, new Map());
      unfinished.shift();
    }
    while (releases.length > 0) {
      const next = releases[0]!;
      await context.run(releaseScript, [`${prefix}wallet-resv:${next.userId}`, `${prefix}key-resv:${next.keyId}`], [next.member]);
      releases.shift();
    }
    for (const field of [...toReconcile]) {
      toReconcile.delete(field);
      try {
        await reconcile(field, false);
      } catch (error) {
        toReconcile.add(field);
        throw error;
      }
    }
    await sweepDeadInstances();
  };

  await heartbeat();
  let running: Promise<void> | null = null;
  const tick = () => {
    // Redis away: try again next tick; the owed repairs stay queued.
    running ??= maintain().catch(() => {}).finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void tick(), Math.max(50, Math.min(1000, Math.floor(instanceTtlMs / 3))));
  timer.unref();
  void tick();

  return {
    instanceId,
    pendingKey,
    reconcile,
    async aroundWrite(fields, write, after) {
      let begun = false;
      try {
        await context.run(beginWriteScript, [instanceKey], [prefix, ...fields]);
        begun = true;
      } catch {
        // Redis away: the database is written anyway (it is the truth); the counters are rebuilt afterwards.
      }
      try {
        await write();
      } catch (error) {
        if (begun) await endWrite(fields, [], new Map()).catch(() => unfinished.push({ fields, members: [] }));
        throw error;
      }
      const { forgetPending = [], credit = new Map<number, number>() } = after();
      try {
        await endWrite(begun ? fields : [], forgetPending, credit);
        if (!begun) repairLater(fields);
      } catch {
        // Not known whether it ran: clear what this instance marked and rebuild the counters from the database.
        if (begun) unfinished.push({ fields, members: forgetPending });
        repairLater(fields);
      }
    },
    repairLater,
    notePending(member, record) {
      if (record === null) mirror.delete(member);
      else mirror.set(member, record);
    },
    maintain,
    async close() {
      clearInterval(timer);
      await running;
      // A last try at what is owed; what still fails is repaired by another instance's sweep once this
      // instance's heartbeat has expired.
      await maintain().catch(() => {});
      if (unfinished.length === 0 && toReconcile.size === 0 && (await redis.hlen(pendingKey).catch(() => 1)) === 0) {
        await redis.del(aliveKey(instanceId), instanceKey, pendingKey).catch(() => {});
        await redis.srem(`${prefix}instances`, instanceId).catch(() => {});
      }
    },
  };
}
