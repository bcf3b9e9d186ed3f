// Worker thread that writes metering batches on its own connection (a SQLite file, or a PostgreSQL pool).
// node:sqlite is synchronous: a batch (and now and then a WAL checkpoint) held the event loop for 1-8 ms,
// which every request arriving meanwhile waited for. On PostgreSQL each batch is a dozen round trips whose
// answers, on the gateway's own loop, waited behind request work, so a batch took longer the busier the
// gateway was, which is when it mattered most (kill -9 loses what is not yet written). Here both run
// beside the loop, at a lower thread priority so the request path wins a core both want.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDatabase } from '../db/database.ts';
import { MeteringWriteInterrupted, writeIsolatingRefusals } from './isolate-refused-rows.ts';
import type { WorkerReply, WorkerRequest } from './metering-worker-protocol.ts';

const { databaseUrl } = workerData as { databaseUrl: string };
/**
 * SQLite: nice 10, not 19: measured with gateway, upstream and worker sharing one core at full load, a
 * nice-19 worker got too little CPU and the unwritten backlog grew for as long as the load lasted (8 000
 * of 72 000 calls written by the end of a 10 s wrk run); at nice 10 it stays within one flush.
 * PostgreSQL: normal priority. The worker mostly waits on the server there, and lowered it fell behind on
 * a busy machine (kill -9 lost calls answered up to 475 ms before, against 60-130 ms written from the
 * gateway's own thread).
 */
const WORKER_NICE = databaseUrl.startsWith('sqlite:') ? 10 : 0;
try {
  // On Linux, priority 0 with no pid names the calling thread: only this worker is lowered.
  if (WORKER_NICE !== 0) setPriority(WORKER_NICE);
} catch {
  // Not permitted here (some containers): the writes still happen, only at normal priority.
}
const database = openDatabase(databaseUrl);
// A database that cannot be opened fails each write (kept and retried by the queue), not the thread.
database.catch(() => {});

// One message at a time, in arrival order: a close never overtakes the write sent before it.
let handled: Promise<void> = Promise.resolve();
parentPort!.on('message', (request: WorkerRequest) => {
  handled = handled.then(() => handle(request));
});

async function handle(request: WorkerRequest): Promise<void> {
  try {
    const { db, close } = await database;
    if (request.kind === 'close') {
      await close();
      parentPort!.postMessage({ id: request.id, ok: true, written: 0, deadLettered: 0 } satisfies WorkerReply);
      return;
    }
    // An empty write is the start-up probe: it proves the connection works.
    if (request.entries.length === 0) await sql`select 1`.execute(db);
    const outcome = await writeIsolatingRefusals(db, request.entries, { retry: request.retry });
    parentPort!.postMessage({ id: request.id, ok: true, ...outcome } satisfies WorkerReply);
  } catch (error) {
    const done = error instanceof MeteringWriteInterrupted ? error.done : 0;
    parentPort!.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error), done } satisfies WorkerReply);
  }
}
