// The cache writes that went to a one-hour cache, apart from the five-minute ones: they are priced apart
// (Anthropic bills them at 2× the input price, the five-minute ones at 1.25×), so a row must hold them to
// recompute its cost. They are a part of cache_write_tokens, as cache_write_tokens is of input_tokens.
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const cacheWrite1h: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('usage_logs').addColumn('cache_write_1h_tokens', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('usage_logs').dropColumn('cache_write_1h_tokens').execute();
  },
};
