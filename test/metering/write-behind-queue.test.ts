// The write-behind queue: one write at a time with everything gathered meanwhile in the next (group commit),
// failed rows kept in order and never written twice, and a close that writes everything.
import { expect, it } from 'vitest';
import { createWriteBehindQueue } from '../../src/metering/write-behind-queue.ts';
import { meteringEntryStore, type MeteringEntryBatch, type QueuedMeteringEntry } from '../../src/metering/metering-entry-batch.ts';
import { decodeMeteringBatch, encodeMeteringBatch, ENCODED_ENTRY_WIDTH } from '../../src/metering/metering-batch-encoding.ts';
import { USAGE_LOG_COLUMNS } from '../../src/db/usage-log-columns.ts';
import type { MeteringEntry } from '../../src/metering/metering-writer.ts';
import type { DurableCharge } from '../../src/metering/accounting.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

it('retries a failed batch in order, without losing or repeating rows', async () => {
  const written: number[] = [];
  let failNext = true;
  const errors: number[] = [];
  const queue = createWriteBehindQueue<number>({
    intervalMs: 60_000,
    maxBatch: 1000,
    write: async (rows) => {
      if (failNext) {
        failNext = false;
        throw new Error('database away');
      }
      written.push(...rows);
    },
    onError: (_error, rows) => errors.push(rows.length),
  });
  queue.enqueue(1);
  queue.enqueue(2);
  await queue.flush();
  expect(written).toEqual([]);
  expect(errors).toEqual([2]);
  expect(queue.pending).toBe(2);
  queue.enqueue(3);
  await queue.close();
  expect(written).toEqual([1, 2, 3]);
  expect(queue.pending).toBe(0);
});

it('keeps only the rows a failed write had not done, and marks their next write as a retry', async () => {
  const batches: number[][] = [];
  const retries: boolean[] = [];
  let fail = true;
  const queue = createWriteBehindQueue<number>({
    intervalMs: 60_000,
    maxBatch: 1000,
    write: async (rows, retry) => {
      batches.push(rows);
      retries.push(retry);
      if (fail) {
        fail = false;
        throw Object.assign(new Error('connection lost'), { done: 2 });
      }
    },
    doneBeforeFailure: (error) => (error as { done: number }).done,
    onError: () => {},
  });
  for (const row of [1, 2, 3, 4]) queue.enqueue(row);
  await queue.flush();
  expect(queue.pending).toBe(2);
  queue.enqueue(5);
  await queue.flush();
  expect(batches).toEqual([[1, 2, 3, 4], [3, 4, 5]]);
  expect(retries).toEqual([false, true]);
  queue.enqueue(6);
  await queue.flush();
  expect(retries).toEqual([false, true, false]);
});

it('writes one batch at a time; what arrives meanwhile goes in one next batch as soon as the first ends', async () => {
  const batches: number[][] = [];
  const gates: ReturnType<typeof deferred>[] = [];
  const queue = createWriteBehindQueue<number>({
    intervalMs: 10,
    maxBatch: 1000,
    write: async (rows) => {
      batches.push(rows);
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
    },
    onError: () => {},
  });
  queue.enqueue(1);
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(batches).toEqual([[1]]);
  // The database is slow: several ticks pass while the first write is in flight, and none starts another.
  for (const row of [2, 3, 4]) {
    queue.enqueue(row);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(batches).toEqual([[1]]);
  expect(queue.pending).toBe(4);
  gates[0]!.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  expect(batches).toEqual([[1], [2, 3, 4]]);
  gates[1]!.resolve();
  await queue.close();
  expect(queue.pending).toBe(0);
});

it('close() keeps retrying until the database takes the rows', async () => {
  let failures = 3;
  const written: number[] = [];
  const queue = createWriteBehindQueue<number>({
    intervalMs: 60_000,
    retryDelayMs: 5,
    maxBatch: 1000,
    write: async (rows) => {
      if (failures-- > 0) throw new Error('database away');
      written.push(...rows);
    },
    onError: () => {},
  });
  queue.enqueue(7);
  await queue.close();
  expect(written).toEqual([7]);
});

it('queues metering entries encoded (the flat batch the worker takes), keeping each one\'s reservation through a partial failure', async () => {
  const entry = (requestId: string, userId: number, chargeMicros: number): MeteringEntry => ({
    chargeMicros,
    log: { created_at: 1, request_id: requestId, user_id: userId, key_id: userId * 10, model: 'm', inbound_format: 'openai', endpoint: '/v1/chat/completions', status: 200, latency_ms: 1 } as MeteringEntry['log'],
  });
  const reservation = (userId: number) => ({ userId, keyId: userId * 10, amountMicros: 99 });
  const written: { entries: MeteringEntry[]; charges: DurableCharge[]; retry: boolean }[] = [];
  let fail = true;
  const queue = createWriteBehindQueue<QueuedMeteringEntry, MeteringEntryBatch>({
    intervalMs: 60_000,
    maxBatch: 2,
    retryDelayMs: 1,
    store: meteringEntryStore,
    write: async (batch, retry) => {
      written.push({ entries: decodeMeteringBatch(batch.encode()), charges: batch.durableCharges(), retry });
      if (fail) {
        fail = false;
        throw Object.assign(new Error('connection lost'), { done: 1 });
      }
    },
    doneBeforeFailure: (error) => (error as { done: number }).done,
    onError: () => {},
  });
  const a = reservation(1);
  const b = reservation(2);
  queue.enqueue({ entry: entry('a', 1, 100), reservation: a });
  queue.enqueue({ entry: entry('b', 2, 200), reservation: b });
  queue.enqueue({ entry: entry('c', 3, 0), reservation: null });
  await queue.close();
  // The first batch (two: maxBatch) failed after its first entry; its second went again, with the third.
  expect(written.map((write) => [write.entries.map((e) => e.log.request_id), write.retry])).toEqual([[['a', 'b'], false], [['b', 'c'], true]]);
  expect(written[1]!.entries[0]).toEqual({ log: expect.objectContaining({ request_id: 'b', user_id: 2, key_id: 20, status: 200 }), chargeMicros: 200 });
  expect(written[0]!.charges).toEqual([{ userId: 1, keyId: 10, chargeMicros: 100, reservation: a }, { userId: 2, keyId: 20, chargeMicros: 200, reservation: b }]);
  expect(written[1]!.charges).toEqual([{ userId: 2, keyId: 20, chargeMicros: 200, reservation: b }, { userId: 3, keyId: 30, chargeMicros: 0, reservation: null }]);
  expect(written[1]!.charges[0]!.reservation).toBe(b);
  expect(queue.pending).toBe(0);
});

it('keeps every column of a queued metering entry exactly: numbers, nulls, absent and odd values, through growth, slices and joins', () => {
  const entries: MeteringEntry[] = [];
  for (let i = 0; i < 600; i++) {
    const log: Record<string, unknown> = {};
    USAGE_LOG_COLUMNS.forEach((column, c) => {
      log[column] = [i * 1_000 + c, null, `text ${i}`, Number.MAX_SAFE_INTEGER - i, -0, 0.5, undefined][(i + c) % 7];
    });
    log.created_at = 1_780_000_000_000 + i;
    if (i % 97 === 0) log.status = Number.NaN;
    if (i % 101 === 0) log.latency_ms = 'twelve';
    entries.push({ chargeMicros: i % 13 === 0 ? 0 : i * 7, log: log as MeteringEntry['log'] });
  }
  const batch = meteringEntryStore.empty();
  entries.forEach((entry, i) => meteringEntryStore.add(batch, { entry, reservation: i % 2 ? { userId: i, keyId: i, amountMicros: i } : null }));
  const reference = encodeMeteringBatch(entries);
  expect(reference.length).toBe(600 * ENCODED_ENTRY_WIDTH);
  expect(reference.some((value) => Object.is(value, -0)) && reference.includes(undefined) && reference.includes(null)).toBe(true);
  expect(batch.encode()).toEqual(reference);
  // toEqual does not tell -0 from 0 nor undefined from absent: compared value by value.
  batch.encode().forEach((value, i) => expect(Object.is(value, reference[i]), `value ${i}`).toBe(true));
  const rejoined = meteringEntryStore.concat(meteringEntryStore.slice(batch, 0, 250), meteringEntryStore.slice(batch, 250));
  expect(rejoined.count).toBe(600);
  rejoined.encode().forEach((value, i) => expect(Object.is(value, reference[i]), `value ${i}`).toBe(true));
  expect(rejoined.durableCharges()).toEqual(batch.durableCharges());
  expect(batch.durableCharges()[3]).toEqual({ userId: entries[3]!.log.user_id ?? null, keyId: entries[3]!.log.key_id ?? null, chargeMicros: 21, reservation: { userId: 3, keyId: 3, amountMicros: 3 } });
});
