// The gateway's own time per call (issue 33): what its answer's `x-gateway-overhead-ms` header said, in
// microseconds (a call's own time is usually well under a millisecond). Null for rows written before it,
// and for calls whose time the gateway cannot split (a token count, which may ask an upstream).
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const otelOverhead: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('usage_logs').addColumn('overhead_us', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('usage_logs').dropColumn('overhead_us').execute();
  },
};
