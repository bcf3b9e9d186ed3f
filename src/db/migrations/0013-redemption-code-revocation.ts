// Redemption codes can be revoked (issue 31): a revoked code is never redeemed, and the list says when
// and by whom it was revoked. A code is either redeemed or revoked, never both (one conditional update).
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const redemptionCodeRevocation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('redemption_codes').addColumn('revoked_at', 'bigint').execute();
    await db.schema.alterTable('redemption_codes').addColumn('revoked_by', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('redemption_codes').dropColumn('revoked_by').execute();
    await db.schema.alterTable('redemption_codes').dropColumn('revoked_at').execute();
  },
};
