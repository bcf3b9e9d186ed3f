// Where metering batches are written. SQLite files: by a worker thread on its own connection, so the
// synchronous writes never stall requests. PostgreSQL (asynchronous already) and in-memory SQLite (which
// a second connection cannot see): on the gateway's own connection.
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { writeMeteringBatch, type MeteringEntry } from './metering-writer.ts';
import type { WorkerReply, WorkerRequest } from './sqlite-metering-protocol.ts';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface MeteringBatchWriter {
  write(entries: MeteringEntry[]): Promise<void>;
  close(): Promise<void>;
}

export function createMeteringBatchWriter(db: Kysely<DatabaseSchema>, sqliteFile: string | null): MeteringBatchWriter {
  if (sqliteFile === null || sqliteFile === ':memory:') {
    return { write: (entries) => writeMeteringBatch(db, entries), close: async () => {} };
  }
  return createWorkerWriter(sqliteFile);
}

function createWorkerWriter(file: string): MeteringBatchWriter {
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  const failAll = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  const started = (): Worker => {
    if (worker) return worker;
    const created = new Worker(new URL('./sqlite-metering-worker.ts', import.meta.url), { workerData: { file } });
    created.on('message', (reply: WorkerReply) => {
      const pending = waiting.get(reply.id);
      if (!pending) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) created.unref();
      if (reply.ok) pending.resolve();
      else pending.reject(new Error(reply.error));
    });
    // A worker that died takes its unanswered batches with it: they are failed, so the write-behind queue
    // keeps and retries them, and the next write starts a fresh worker.
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
  const send = (request: WithoutId<WorkerRequest>): Promise<void> => {
    const target = started();
    const id = nextId++;
    // Referenced while a batch is in flight, so a shutdown waiting for it keeps the process alive.
    target.ref();
    return new Promise<void>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      target.postMessage({ ...request, id });
    });
  };

  return {
    write: (entries) => send({ kind: 'write', entries }),
    async close() {
      if (!worker) return;
      const closing = worker;
      await send({ kind: 'close' }).catch(() => {});
      worker = null;
      await closing.terminate();
    },
  };
}
