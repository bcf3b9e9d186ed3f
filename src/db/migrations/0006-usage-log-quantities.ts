// Every billed quantity in the usage log: with these, a row holds everything its cost came from (tokens by
// kind, images by size and quality, audio, characters, searches, the request itself and the group ratio),
// so the cost of any row can be recomputed from the row and the price in force (src/metering/log-cost.ts).
// Also the gateway error code of a failed call, and whether the gateway counted tokens itself.
import type { Kysely, Migration } from 'kysely';
import { sql } from '../kysely-parts.ts';

const COUNT_COLUMNS = ['cache_write_tokens', 'image_count', 'audio_ms', 'characters', 'searches', 'requests', 'tokens_counted'] as const;

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const usageLogQuantities: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of COUNT_COLUMNS) {
      await db.schema.alterTable('usage_logs').addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    }
    await db.schema.alterTable('usage_logs').addColumn('image_size', 'text').execute();
    await db.schema.alterTable('usage_logs').addColumn('image_quality', 'text').execute();
    await db.schema.alterTable('usage_logs').addColumn('ratio_ppm', 'bigint', (c) => c.notNull().defaultTo(1_000_000)).execute();
    await db.schema.alterTable('usage_logs').addColumn('error_code', 'text').execute();
    // Rows written before this migration: a successful call was billed one request.
    await sql`update usage_logs set requests = 1 where status >= 200 and status < 300`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const column of [...COUNT_COLUMNS, 'image_size', 'image_quality', 'ratio_ppm', 'error_code']) {
      await db.schema.alterTable('usage_logs').dropColumn(column).execute();
    }
  },
};
