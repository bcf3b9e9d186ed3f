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
// Nice 5: measured with gateway, upstream and worker sharing one core at full load (`npm run bench`), a
// nice-19 worker got too little CPU and the unwritten backlog grew for as long as the load lasted (8 000 of
// 72 000 calls written by the end of a 10 s wrk run); nice 10 kept up while the request thread cost ~130 µs
// a call, but once it cost ~70 µs (issue 16) the worker needed ~9 % of the core against the ~5 % a nice-10
// thread gets beside two busy ones, and the gateway began refusing calls at the backlog bound (31 000 of
// 136 000 in a wrk run). Nice 5 gets ~14 % there, ~25 % beside the request thread alone.
lowerWorkerPriority(5);
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
