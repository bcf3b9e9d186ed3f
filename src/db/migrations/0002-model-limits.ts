// Per-model endpoint limits (image sizes, largest n, longest prompt) beside the prices.
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const modelLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('models').addColumn('limits_json', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('models').dropColumn('limits_json').execute();
  },
};
