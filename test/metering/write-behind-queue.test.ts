// The write-behind queue keeps a batch whose write failed and writes it with the next flush.
import { expect, it } from 'vitest';
import { createWriteBehindQueue } from '../../src/metering/write-behind-queue.ts';

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
  queue.enqueue(3);
  await queue.close();
  expect(written).toEqual([1, 2, 3]);
});
