// Batches rows off the hot path: callers enqueue and return at once; a timer (or a full batch) starts a write.
//
// Group commit, one write at a time: while a batch is being written, new rows gather in the buffer, and a
// flush that comes due meanwhile starts as soon as that write ends, with everything gathered so far. Writes
// therefore never queue up behind each other: however slow the database is under load, what is not yet
// written is the batch in flight plus what arrived since it started, and batches grow with the load
// instead of falling behind it. (Before, each tick chained another batch behind the previous ones; when
// writes took longer than the interval the chain, and what a kill -9 loses, grew for as long as it lasted.)
//
// A batch whose write fails keeps the rows not done (`doneBeforeFailure`) at the front, in order, and
// they are written with the next flush, marked as a retry: the writer then skips rows a failed write had
// committed after all, so a row is never written twice. close() retries until everything
// is written, so a clean stop loses nothing.
interface WriteBehindQueue<T> {
  enqueue(row: T): void;
  /** Resolves once the rows queued before the call are written, or once a write has failed. */
  flush(): Promise<void>;
  /** Stops the timer and writes everything, retrying failed writes, however long the database takes. */
  close(): Promise<void>;
  /** Rows queued or being written. */
  readonly pending: number;
}

/**
 * How the queue holds its rows. By default an array of them; the usage recorder keeps each row encoded as
 * it is queued (metering-entry-batch.ts), so that rows waiting up to a flush interval are not objects the
 * young generation copies and promotes.
 */
export interface RowStore<T, B> {
  empty(): B;
  add(batch: B, row: T): void;
  count(batch: B): number;
  /** Rows `from` up to `to` (the end when omitted) as a new batch. */
  slice(batch: B, from: number, to?: number): B;
  /** `first`'s rows, then `second`'s. */
  concat(first: B, second: B): B;
}

interface WriteBehindOptions<T, B = T[]> {
  intervalMs: number;
  /** Most rows per write (one transaction). */
  maxBatch: number;
  /** `retry`: some of the rows were in a write that failed (and may have committed nonetheless). */
  write(rows: B, retry: boolean): Promise<void>;
  /** How many rows, from the start of a failed batch, were done anyway; 0 when not said. */
  doneBeforeFailure?(error: unknown): number;
  /** Told of each failed write, with the rows kept for the next one. */
  onError(error: unknown, kept: B): void;
  /** Pause between retries while closing; default the interval. */
  retryDelayMs?: number;
  /** How rows are held; an array of them by default. */
  store?: RowStore<T, B>;
}

const arrayStore: RowStore<unknown, unknown[]> = {
  empty: () => [],
  add: (batch, row) => void batch.push(row),
  count: (batch) => batch.length,
  slice: (batch, from, to) => batch.slice(from, to),
  concat: (first, second) => first.concat(second),
};

export function createWriteBehindQueue<T, B = T[]>(options: WriteBehindOptions<T, B>): WriteBehindQueue<T> {
  const store = options.store ?? (arrayStore as unknown as RowStore<T, B>);
  let buffer: B = store.empty();
  let current: Promise<void> | null = null;
  let due = false;
  let enqueued = 0;
  let finished = 0;
  let failures = 0;
  /** How many rows at the front of the buffer were kept from a failed write. */
  let keptAtFront = 0;

  const startWrite = (): Promise<void> => {
    const buffered = store.count(buffer);
    const batch = buffered <= options.maxBatch ? buffer : store.slice(buffer, 0, options.maxBatch);
    const size = Math.min(buffered, options.maxBatch);
    buffer = batch === buffer ? store.empty() : store.slice(buffer, size);
    const failuresBefore = failures;
    const retry = keptAtFront > 0;
    keptAtFront = Math.max(0, keptAtFront - size);
    current = (async () => {
      try {
        await options.write(batch, retry);
        finished += size;
      } catch (error) {
        failures++;
        const done = Math.max(0, Math.min(size, options.doneBeforeFailure?.(error) ?? 0));
        finished += done;
        const kept = store.slice(batch, done);
        buffer = store.concat(kept, buffer);
        keptAtFront += size - done;
        options.onError(error, kept);
      } finally {
        current = null;
      }
      // A flush that came due during this write goes now (after a failure: at the next tick).
      const waiting = store.count(buffer);
      if (failures === failuresBefore && waiting > 0 && (due || waiting >= options.maxBatch)) {
        due = false;
        void startWrite();
      }
    })();
    return current;
  };

  const kick = () => {
    if (store.count(buffer) === 0) return;
    if (current) due = true;
    else void startWrite();
  };

  const timer = setInterval(kick, options.intervalMs);
  timer.unref();

  /** Writes until the first `target` rows ever queued are done; false when a write failed first. */
  const drain = async (target: number): Promise<boolean> => {
    while (finished < target) {
      const failuresBefore = failures;
      await (current ?? startWrite());
      if (failures !== failuresBefore) return false;
    }
    return true;
  };

  return {
    enqueue(row) {
      store.add(buffer, row);
      enqueued++;
      if (store.count(buffer) >= options.maxBatch && !current) void startWrite();
    },
    async flush() {
      await drain(enqueued);
    },
    async close() {
      clearInterval(timer);
      // Rows enqueued while closing (a stream cut at the end of the grace period) are written too.
      while (!(await drain(enqueued))) {
        await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs ?? options.intervalMs));
      }
    },
    get pending() {
      return enqueued - finished;
    },
  };
}
