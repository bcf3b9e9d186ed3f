// The platform overview (issue 31, item 2) sums the revenue of a period: card top-ups completed in it and
// redemption codes redeemed in it. Without these indexes each page view would read every payment and
// every code ever made.
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const revenueIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('payments_completed_at').on('payments').column('completed_at').execute();
    await db.schema.createIndex('redemption_codes_redeemed_at').on('redemption_codes').column('redeemed_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('redemption_codes_redeemed_at').ifExists().execute();
    await db.schema.dropIndex('payments_completed_at').ifExists().execute();
  },
};
