// Worker thread that writes metering batches to a SQLite file on its own connection. node:sqlite is
// synchronous: a batch (and now and then a WAL checkpoint) held the gateway's event loop for 1-8 ms, which
// every request arriving meanwhile waited for; here it runs beside the loop, at a lower thread priority so
// the request path wins a core both want. It writes with prepared statements (sqlite-metering-store.ts),
// not Kysely: an idle worker with Kysely's 262 modules was ~38 MB resident, without them ~14 MB.
import { workerData } from 'node:worker_threads';
import { openSqliteFile, sqliteFileOfUrl } from '../db/sqlite-driver.ts';
import { lowerWorkerPriority, serveMeteringRequests } from './serve-metering-requests.ts';
import { sqliteMeteringStore } from './sqlite-metering-store.ts';

const { databaseUrl } = workerData as { databaseUrl: string };
// Nice 10, not 19: measured with gateway, upstream and worker sharing one core at full load, a nice-19
// worker got too little CPU and the unwritten backlog grew for as long as the load lasted (8 000 of 72 000
// calls written by the end of a 10 s wrk run); at nice 10 it stays within one flush.
lowerWorkerPriority(10);
serveMeteringRequests(Promise.resolve().then(() => {
  const database = openSqliteFile(sqliteFileOfUrl(databaseUrl));
  return {
    store: sqliteMeteringStore(database),
    probe: async () => {
      database.prepare('select 1').get();
    },
    close: async () => {
      database.close();
    },
  };
}));
