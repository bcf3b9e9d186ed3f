// Where metering batches are written: by a worker thread on its own connection (src/metering/
// metering-worker.ts), for a SQLite file and for PostgreSQL alike, so neither synchronous SQLite writes nor
// PostgreSQL round trips wait on (or hold up) the request loop. In-memory SQLite, which a second connection
// cannot see, is written on the gateway's own connection.
// Either way a batch is written with refused rows set aside (isolate-refused-rows.ts); a failure says how
// many entries from the start were done (MeteringWriteInterrupted), so the queue retries only the rest.
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { MeteringEntry } from './metering-writer.ts';
import { MeteringWriteInterrupted, writeIsolatingRefusals, type BatchOutcome } from './isolate-refused-rows.ts';
import { kyselyMeteringStore } from './kysely-metering-store.ts';
import { encodeMeteringBatch } from './metering-batch-encoding.ts';
import type { WorkerReply, WorkerRequest } from './metering-worker-protocol.ts';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface MeteringBatchWriter {
  /**
   * Starts the worker and opens its connection, resolving when it can write. Awaited before the gateway
   * listens: started lazily, a worker booting on a loaded machine took seconds, and every call answered
   * meanwhile was unwritten (all lost to a kill -9 then).
   */
  start(): Promise<void>;
  /** Resolves with what was written and dead-lettered; rejects with MeteringWriteInterrupted. */
  write(entries: MeteringEntry[], options?: { retry?: boolean }): Promise<BatchOutcome>;
  close(): Promise<void>;
}

/** `databaseUrl`: the database for a worker of its own; null writes on `db` in this thread. */
export function createMeteringBatchWriter(db: Kysely<DatabaseSchema>, databaseUrl: string | null): MeteringBatchWriter {
  if (databaseUrl === null || databaseUrl === 'sqlite::memory:') {
    const store = kyselyMeteringStore(db);
    return {
      start: async () => {},
      write: async (entries, options = {}) => {
        try {
          return await writeIsolatingRefusals(store, entries, options);
        } catch (error) {
          throw error instanceof MeteringWriteInterrupted ? error : new MeteringWriteInterrupted(0, error);
        }
      },
      close: async () => {},
    };
  }
  return createWorkerWriter(databaseUrl);
}

function createWorkerWriter(databaseUrl: string): MeteringBatchWriter {
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (outcome: BatchOutcome) => void; reject: (error: Error) => void }>();

  const failAll = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(new MeteringWriteInterrupted(0, error));
    waiting.clear();
  };
  const started = (): Worker => {
    if (worker) return worker;
    // A small young generation: the worker's garbage is a batch's rows and SQL, and without a cap it inherits
    // the gateway's 8 MB semi-spaces (npm start), resident memory it would hold for nothing. Only the young
    // generation is capped: an old-generation cap could kill the worker on a large batch.
    // A SQLite file gets the worker without Kysely (sqlite-metering-worker.ts), PostgreSQL the Kysely one.
    const script = databaseUrl.startsWith('sqlite:') ? './sqlite-metering-worker.ts' : './metering-worker.ts';
    const created = new Worker(new URL(script, import.meta.url), { workerData: { databaseUrl }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    created.on('message', (reply: WorkerReply) => {
      const pending = waiting.get(reply.id);
      if (!pending) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) created.unref();
      if (reply.ok) pending.resolve({ written: reply.written, deadLettered: reply.deadLettered });
      else pending.reject(new MeteringWriteInterrupted(reply.done, new Error(reply.error)));
    });
    // A worker that died takes its unanswered batches with it: they are failed as not done, so the
    // write-behind queue keeps and retries them, and the next write starts a fresh worker.
    created.on('error', (error) => {
      if (worker === created) worker = null;
      failAll(error);
    });
    created.on('exit', (code) => {
      if (worker === created) worker = null;
      failAll(new Error(`the metering worker stopped (exit code ${code})`));
    });
    worker = created;
    return created;
  };
  const send = (request: WithoutId<WorkerRequest>): Promise<BatchOutcome> => {
    const target = started();
    const id = nextId++;
    // Referenced while a batch is in flight, so a shutdown waiting for it keeps the process alive.
    target.ref();
    return new Promise<BatchOutcome>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      target.postMessage({ ...request, id });
    });
  };

  return {
    // An empty write opens the connection (and, on PostgreSQL, asks the server once).
    start: async () => {
      await send({ kind: 'write', entries: [], retry: false });
      started().unref();
    },
    // Flat, not as objects: structured clone on this (the request) thread is most of a write's cost here.
    write: (entries, options = {}) => send({ kind: 'write', entries: encodeMeteringBatch(entries), retry: options.retry === true }),
    async close() {
      if (!worker) return;
      const closing = worker;
      await send({ kind: 'close' }).catch(() => {});
      worker = null;
      await closing.terminate();
    },
  };
}
