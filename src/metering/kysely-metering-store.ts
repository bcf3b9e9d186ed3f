// The metering store over Kysely: PostgreSQL (in the metering worker) and SQLite on the gateway's own
// connection (in-memory databases, which a worker cannot see).
import { inTransaction, type Db } from '../db/repositories/repository-helpers.ts';
import { insertMeteringDeadLetter } from '../db/repositories/metering-dead-letters.ts';
import { findLoggedRequestIds } from '../db/repositories/usage-logs.ts';
import type { MeteringStore } from './metering-store.ts';
import { writeCharges, writeMeteringBatch } from './metering-writer.ts';

export function kyselyMeteringStore(db: Db): MeteringStore {
  return {
    writeBatch: (entries) => writeMeteringBatch(db, entries),
    deadLetterWithCharge: (entry, row) => inTransaction(db, async (trx) => {
      await writeCharges(trx, [entry]);
      await insertMeteringDeadLetter(trx, row);
    }),
    insertDeadLetter: (row) => insertMeteringDeadLetter(db, row),
    findLogged: (requestIds, from, to) => findLoggedRequestIds(db, requestIds, from, to),
  };
}
