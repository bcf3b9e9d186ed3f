// Metering entries the database refused, kept with their error (src/metering/isolate-refused-rows.ts).
import type { Insertable } from 'kysely';
import type { MeteringDeadLetterRow, MeteringDeadLettersTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

export async function insertMeteringDeadLetter(db: Db, row: Insertable<MeteringDeadLettersTable>): Promise<void> {
  await db.insertInto('metering_dead_letters').values(row).execute();
}

/** Newest first; `chargePending` lists only the entries whose charge still waits to be applied. */
export async function listMeteringDeadLetters(db: Db, options: { chargePending?: boolean; limit?: number } = {}): Promise<MeteringDeadLetterRow[]> {
  let query = db.selectFrom('metering_dead_letters').selectAll();
  if (options.chargePending) query = query.where('charge_applied', '=', 0).where('charge_micros', '>', 0);
  return query.orderBy('id', 'desc').limit(Math.min(options.limit ?? 100, 1000)).execute();
}
