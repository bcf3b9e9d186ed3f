// Worker thread that writes metering batches to PostgreSQL on its own pool (a SQLite file has its own,
// lighter worker: sqlite-metering-worker.ts). Each batch is a dozen round trips whose answers, on the
// gateway's own loop, waited behind request work, so a batch took longer the busier the gateway was, which
// is when it mattered most (kill -9 loses what is not yet written). Here they run beside the loop.
import { workerData } from 'node:worker_threads';
import { openDatabase, pingDatabase } from '../db/database.ts';
import { kyselyMeteringStore } from './kysely-metering-store.ts';
import { serveMeteringRequests } from './serve-metering-requests.ts';

const { databaseUrl } = workerData as { databaseUrl: string };
// Normal priority: the worker mostly waits on the server, and lowered it fell behind on a busy machine
// (kill -9 lost calls answered up to 475 ms before, against 60-130 ms written from the gateway's own thread).
serveMeteringRequests(openDatabase(databaseUrl).then(({ db, close }) => ({
  store: kyselyMeteringStore(db),
  probe: () => pingDatabase(db),
  close,
})));
