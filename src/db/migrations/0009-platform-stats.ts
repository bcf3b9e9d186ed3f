// Two roll-ups of usage_stats, so platform-wide statistics read hundreds of rows instead of every user's,
// key's and model's: usage_stats_platform (bucket, start, model) for the series, the by-model breakdown
// and the rates; usage_stats_keys (bucket, start, user, key) for the by-key breakdown. The metering writer
// adds to them in the same transaction as usage_stats. Backfilled from usage_stats (not the raw log), so
// they hold exactly what it holds, including history whose log rows retention already deleted.
// Plain rowid tables on SQLite: WITHOUT ROWID measured slower for the by-key range read at 1M calls.
import type { Kysely, Migration } from 'kysely';
import { sql } from '../kysely-parts.ts';

const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const platformStats: Migration = {
  async up(db: Kysely<unknown>) {
    let platform = db.schema.createTable('usage_stats_platform')
      .addColumn('bucket', 'text', (c) => c.notNull())
      .addColumn('bucket_start', 'bigint', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull());
    for (const counter of COUNTERS) platform = platform.addColumn(counter, 'bigint', (c) => c.notNull().defaultTo(0));
    await platform.addPrimaryKeyConstraint('usage_stats_platform_pk', ['bucket', 'bucket_start', 'model']).execute();

    let keys = db.schema.createTable('usage_stats_keys')
      .addColumn('bucket', 'text', (c) => c.notNull())
      .addColumn('bucket_start', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('key_id', 'bigint', (c) => c.notNull());
    for (const counter of COUNTERS) keys = keys.addColumn(counter, 'bigint', (c) => c.notNull().defaultTo(0));
    await keys.addPrimaryKeyConstraint('usage_stats_keys_pk', ['bucket', 'bucket_start', 'user_id', 'key_id']).execute();

    const sums = sql.raw(COUNTERS.map((counter) => `sum(${counter})`).join(', '));
    const counters = sql.raw(COUNTERS.join(', '));
    await sql`insert into usage_stats_platform (bucket, bucket_start, model, ${counters})
      select bucket, bucket_start, model, ${sums} from usage_stats group by bucket, bucket_start, model`.execute(db);
    await sql`insert into usage_stats_keys (bucket, bucket_start, user_id, key_id, ${counters})
      select bucket, bucket_start, user_id, key_id, ${sums} from usage_stats group by bucket, bucket_start, user_id, key_id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('usage_stats_keys').ifExists().execute();
    await db.schema.dropTable('usage_stats_platform').ifExists().execute();
  },
};
