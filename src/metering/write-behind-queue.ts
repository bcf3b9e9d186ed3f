// Batches rows off the hot path: callers enqueue and return at once; a timer (or a full batch) flushes.
// flush() is awaited on shutdown so a clean stop loses nothing; a crash loses at most one interval.
// A batch whose write fails (the database away for a moment) is kept and written again with the next
// flush: each batch is one transaction, so a retry can never apply part of it twice.
export interface WriteBehindQueue<T> {
  enqueue(row: T): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  readonly pending: number;
}

export interface WriteBehindOptions<T> {
  intervalMs: number;
  maxBatch: number;
  write(rows: T[]): Promise<void>;
  onError(error: unknown, rows: T[]): void;
}

export function createWriteBehindQueue<T>(options: WriteBehindOptions<T>): WriteBehindQueue<T> {
  let buffer: T[] = [];
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const flush = (): Promise<void> => {
    if (buffer.length === 0) return writing;
    const batch = buffer;
    buffer = [];
    // Batches are written one after another, in order.
    writing = writing.then(async () => {
      try {
        await options.write(batch);
      } catch (error) {
        options.onError(error, batch);
        buffer = batch.concat(buffer);
      }
    });
    return writing;
  };

  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();

  return {
    enqueue(row) {
      if (closed) throw new Error('write-behind queue is closed');
      buffer.push(row);
      if (buffer.length >= options.maxBatch) void flush();
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
    get pending() {
      return buffer.length;
    },
  };
}
