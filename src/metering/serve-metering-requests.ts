// The message loop both metering workers run (metering-worker.ts on PostgreSQL with Kysely,
// sqlite-metering-worker.ts on a SQLite file with prepared statements): writes and closes, one at a time.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { MeteringWriteInterrupted, writeIsolatingRefusals } from './isolate-refused-rows.ts';
import { decodeMeteringBatch } from './metering-batch-encoding.ts';
import type { MeteringStore } from './metering-store.ts';
import type { WorkerReply, WorkerRequest } from './metering-worker-protocol.ts';

interface MeteringConnection {
  store: MeteringStore;
  /** Proves the connection works (the start-up probe: an empty write). */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/** Lowers this thread's priority (`nice`), where permitted: only the worker, not the gateway's thread. */
export function lowerWorkerPriority(nice: number): void {
  try {
    // On Linux, priority 0 with no pid names the calling thread: only this worker is lowered.
    if (nice !== 0) setPriority(nice);
  } catch {
    // Not permitted here (some containers): the writes still happen, only at normal priority.
  }
}

export function serveMeteringRequests(connection: Promise<MeteringConnection>): void {
  // A database that cannot be opened fails each write (kept and retried by the queue), not the thread.
  connection.catch(() => {});
  // One message at a time, in arrival order: a close never overtakes the write sent before it.
  let handled: Promise<void> = Promise.resolve();
  parentPort!.on('message', (request: WorkerRequest) => {
    handled = handled.then(() => handle(connection, request));
  });
}

async function handle(connection: Promise<MeteringConnection>, request: WorkerRequest): Promise<void> {
  try {
    const { store, probe, close } = await connection;
    if (request.kind === 'close') {
      await close();
      parentPort!.postMessage({ id: request.id, ok: true, written: 0, deadLettered: 0 } satisfies WorkerReply);
      return;
    }
    // An empty write is the start-up probe: it proves the connection works.
    const entries = decodeMeteringBatch(request.entries);
    if (entries.length === 0) await probe();
    const outcome = await writeIsolatingRefusals(store, entries, { retry: request.retry });
    parentPort!.postMessage({ id: request.id, ok: true, ...outcome } satisfies WorkerReply);
  } catch (error) {
    const done = error instanceof MeteringWriteInterrupted ? error.done : 0;
    parentPort!.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error), done } satisfies WorkerReply);
  }
}
