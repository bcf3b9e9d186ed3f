// Metering entries the database refused (found by splitting the refused batch), kept with the error instead
// of jamming every later write. A charge that could still be applied is in the ledger (charge_applied 1);
// one that could not (its user was deleted, say) is kept here to be replayed (charge_applied 0).
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function meteringDeadLetters(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('metering_dead_letters')
        .addColumn('id', id.type, id.build)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint')
        .addColumn('key_id', 'bigint')
        .addColumn('charge_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('charge_applied', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('entry_json', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('metering_dead_letters_created_at').on('metering_dead_letters').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('metering_dead_letters').ifExists().execute();
    },
  };
}
