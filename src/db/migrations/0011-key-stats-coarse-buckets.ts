// Six-hour and week buckets in usage_stats_keys (epoch-aligned: 6 hour buckets, 7 day buckets), so the
// platform's by-key breakdown reads ~4 rows per key for a day and ~4 for a month instead of ~24 and ~30
// (docs/metering.md "Statistics"). Backfilled from the hour and day buckets already there. Retention
// trims six-hour buckets with the hour buckets and keeps weeks, like days.
import type { Kysely, Migration } from 'kysely';
import { sql } from '../kysely-parts.ts';

const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;
const COARSER = [['hour', 'six_hours', 6 * 3_600_000], ['day', 'week', 7 * 86_400_000]] as const;

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const keyStatsCoarseBuckets: Migration = {
  async up(db: Kysely<unknown>) {
    const sums = sql.raw(COUNTERS.map((counter) => `sum(${counter})`).join(', '));
    const counters = sql.raw(COUNTERS.join(', '));
    for (const [finer, coarser, size] of COARSER) {
      // Literals, not parameters: PostgreSQL matches the GROUP BY expression to the selected one by text.
      const start = sql`bucket_start - (bucket_start % ${sql.lit(size)})`;
      await sql`insert into usage_stats_keys (bucket, bucket_start, user_id, key_id, ${counters})
        select ${sql.lit(coarser)}, ${start}, user_id, key_id, ${sums} from usage_stats_keys where bucket = ${sql.lit(finer)}
        group by ${start}, user_id, key_id`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from usage_stats_keys where bucket in ('six_hours', 'week')`.execute(db);
  },
};
