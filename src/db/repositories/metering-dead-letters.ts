// Metering entries the database refused, kept with their error (src/metering/isolate-refused-rows.ts).
import type { Insertable } from 'kysely';
import type { MeteringDeadLettersTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

export async function insertMeteringDeadLetter(db: Db, row: Insertable<MeteringDeadLettersTable>): Promise<void> {
  await db.insertInto('metering_dead_letters').values(row).execute();
}
