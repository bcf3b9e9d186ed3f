// The metering store over Kysely: PostgreSQL (in the metering worker) and SQLite on the gateway's own
// connection (in-memory databases, which a worker cannot see).
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { insertMeteringDeadLetter } from '../db/repositories/metering-dead-letters.ts';
import { findLoggedRequestIds } from '../db/repositories/usage-logs.ts';
import type { MeteringStore } from './metering-store.ts';
import { writeCharges, writeMeteringBatch } from './metering-writer.ts';

export function kyselyMeteringStore(db: Kysely<DatabaseSchema>): MeteringStore {
  return {
    writeBatch: (entries) => writeMeteringBatch(db, entries),
    deadLetterWithCharge: (entry, row) => db.transaction().execute(async (trx) => {
      await writeCharges(trx, [entry]);
      await insertMeteringDeadLetter(trx, row);
    }),
    insertDeadLetter: (row) => insertMeteringDeadLetter(db, row),
    findLogged: (requestIds, from, to) => findLoggedRequestIds(db, requestIds, from, to),
  };
}
