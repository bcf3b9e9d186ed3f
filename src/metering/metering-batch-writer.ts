// Where metering batches are written: by a worker thread on its own connection (src/metering/
// metering-worker.ts), for a SQLite file and for PostgreSQL alike, so neither synchronous SQLite writes nor
// PostgreSQL round trips wait on (or hold up) the request loop. In-memory SQLite, which a second connection
// cannot see, is written on the gateway's own connection.
// Either way a batch is written with refused rows set aside (isolate-refused-rows.ts); a failure says how
// many entries from the start were done (MeteringWriteInterrupted), so the queue retries only the rest.
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { MeteringEntry } from './metering-writer.ts';
import { MeteringWriteInterrupted, writeIsolatingRefusals, type BatchOutcome } from './isolate-refused-rows.ts';
import { kyselyMeteringStore } from './kysely-metering-store.ts';
import { decodeMeteringBatch, encodeMeteringBatch, type EncodedMeteringBatch } from './metering-batch-encoding.ts';
import { withOwnYoungGeneration } from './worker-young-generation.ts';
import type { WorkerReply, WorkerRequest } from './metering-worker-protocol.ts';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface MeteringBatchWriter {
  /**
   * Makes the writer ready before the gateway listens. PostgreSQL: starts the worker and proves its
   * connection (a PostgreSQL worker booting on a loaded machine took seconds, and every call answered
   * meanwhile was unwritten). A SQLite file: nothing to wait for (the gateway's own connection has just
   * opened and migrated the same file); its worker boots when the first entry is queued (`prepare`).
   */
  start(): Promise<void>;
  /**
   * Called when an entry is queued: boots the worker if it is not running, so it is up by the flush that
   * writes the entry (booting takes tens of milliseconds; the flush interval is 250 ms by default).
   */
  prepare(): void;
  /** Whether a worker thread is up now (false for the in-thread writer). */
  readonly workerRunning: boolean;
  /** Resolves with what was written and dead-lettered; rejects with MeteringWriteInterrupted. */
  write(entries: MeteringEntry[], options?: { retry?: boolean }): Promise<BatchOutcome>;
  /** The same, for entries already encoded as the worker takes them (the usage recorder queues them so). */
  writeEncoded(batch: EncodedMeteringBatch, options?: { retry?: boolean }): Promise<BatchOutcome>;
  close(): Promise<void>;
}

/**
 * A SQLite file's worker stops after this long without a batch, and the next entry boots a new one: an
 * idle gateway does not keep a second V8 isolate (~15 MB resident) for nothing. PostgreSQL keeps its
 * worker for the life of the process.
 */
const SQLITE_WORKER_IDLE_STOP_MS = 60_000;

interface MeteringBatchWriterOptions {
  /** Overrides SQLITE_WORKER_IDLE_STOP_MS (tests). */
  idleStopMs?: number;
}

/** `databaseUrl`: the database for a worker of its own; null writes on `db` in this thread. */
export function createMeteringBatchWriter(db: Db, databaseUrl: string | null, options: MeteringBatchWriterOptions = {}): MeteringBatchWriter {
  if (databaseUrl === null || databaseUrl === 'sqlite::memory:') {
    const store = kyselyMeteringStore(db);
    const write = async (entries: MeteringEntry[], options: { retry?: boolean } = {}) => {
      try {
        return await writeIsolatingRefusals(store, entries, options);
      } catch (error) {
        throw error instanceof MeteringWriteInterrupted ? error : new MeteringWriteInterrupted(0, error);
      }
    };
    return {
      start: async () => {},
      prepare: () => {},
      workerRunning: false,
      write,
      writeEncoded: (batch, options) => write(decodeMeteringBatch(batch), options),
      close: async () => {},
    };
  }
  const sqliteFile = databaseUrl.startsWith('sqlite:');
  return createWorkerWriter(databaseUrl, { lazy: sqliteFile, idleStopMs: sqliteFile ? (options.idleStopMs ?? SQLITE_WORKER_IDLE_STOP_MS) : 0 });
}

interface Pending {
  resolve: (outcome: BatchOutcome) => void;
  reject: (error: Error) => void;
}

/** One worker thread and the batches it has not answered yet (each worker its own: one that stops fails only its own). */
interface RunningWorker {
  thread: Worker;
  waiting: Map<number, Pending>;
}

function createWorkerWriter(databaseUrl: string, { lazy, idleStopMs }: { lazy: boolean; idleStopMs: number }): MeteringBatchWriter {
  let current: RunningWorker | null = null;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;

  const boot = (): RunningWorker => {
    // A small young generation: the worker's garbage is a batch's rows and SQL, and without a cap it inherits
    // the gateway's 8 MB semi-spaces (npm start), resident memory it would hold for nothing; the cap only
    // holds with npm start's semi-space flags cleared while the isolate starts (worker-young-generation.ts).
    // Only the young generation is capped: an old-generation cap could kill the worker on a large batch.
    // A SQLite file gets the worker without Kysely (sqlite-metering-worker.ts), PostgreSQL the Kysely one.
    const script = databaseUrl.startsWith('sqlite:') ? './sqlite-metering-worker.ts' : './metering-worker.ts';
    const thread = withOwnYoungGeneration(() => new Worker(new URL(script, import.meta.url), { workerData: { databaseUrl }, resourceLimits: { maxYoungGenerationSizeMb: 4 } }));
    // Kept alive only while a batch is in flight (`request`), so an idle worker never holds the process open.
    thread.unref();
    const running: RunningWorker = { thread, waiting: new Map() };
    const failAll = (error: Error) => {
      for (const pending of running.waiting.values()) pending.reject(new MeteringWriteInterrupted(0, error));
      running.waiting.clear();
    };
    thread.on('message', (reply: WorkerReply) => {
      const pending = running.waiting.get(reply.id);
      if (!pending) return;
      running.waiting.delete(reply.id);
      if (running.waiting.size === 0) {
        thread.unref();
        if (running === current) armIdleStop();
      }
      if (reply.ok) pending.resolve({ written: reply.written, deadLettered: reply.deadLettered });
      else pending.reject(new MeteringWriteInterrupted(reply.done, new Error(reply.error)));
    });
    // A worker that died takes its unanswered batches with it: they are failed as not done, so the
    // write-behind queue keeps and retries them, and the next write starts a fresh worker.
    thread.on('error', (error) => {
      if (current === running) current = null;
      failAll(error);
    });
    thread.on('exit', (code) => {
      if (current === running) current = null;
      failAll(new Error(`the metering worker stopped (exit code ${code})`));
    });
    return running;
  };
  const running = (): RunningWorker => {
    if (current) return current;
    current = boot();
    armIdleStop();
    return current;
  };
  const request = (target: RunningWorker, message: WithoutId<WorkerRequest>): Promise<BatchOutcome> => {
    const id = nextId++;
    // Referenced while a batch is in flight, so a shutdown waiting for it keeps the process alive.
    target.thread.ref();
    return new Promise<BatchOutcome>((resolve, reject) => {
      target.waiting.set(id, { resolve, reject });
      target.thread.postMessage({ ...message, id });
    });
  };
  // Closes the worker's connection (a close never overtakes the write sent before it), then ends the thread.
  const retire = async (target: RunningWorker) => {
    await request(target, { kind: 'close' }).catch(() => {});
    await target.thread.terminate();
  };
  const armIdleStop = () => {
    if (idleStopMs <= 0) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      const idle = current;
      if (!idle || idle.waiting.size > 0) return;
      current = null;
      void retire(idle);
    }, idleStopMs);
    idleTimer.unref();
  };
  const send = (message: WithoutId<WorkerRequest>): Promise<BatchOutcome> => {
    clearTimeout(idleTimer);
    return request(running(), message);
  };

  return {
    // PostgreSQL: an empty write opens the connection and asks the server once. A SQLite file: see the interface.
    start: async () => {
      if (lazy) return;
      await send({ kind: 'write', entries: [], retry: false });
    },
    prepare: () => {
      if (!current) running();
    },
    get workerRunning() {
      return current !== null;
    },
    // Flat, not as objects: structured clone on this (the request) thread is most of a write's cost here.
    write: (entries, options = {}) => send({ kind: 'write', entries: encodeMeteringBatch(entries), retry: options.retry === true }),
    writeEncoded: (batch, options = {}) => send({ kind: 'write', entries: batch, retry: options.retry === true }),
    async close() {
      clearTimeout(idleTimer);
      if (!current) return;
      const closing = current;
      current = null;
      await retire(closing);
    },
  };
}
