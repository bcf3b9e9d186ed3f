// Week buckets in usage_stats_keys (epoch-aligned, 7 day buckets each), so the platform's by-key
// breakdown over a month reads ~4 week rows per key instead of ~30 day rows (docs/metering.md
// "Statistics"). Backfilled from the day buckets already there; kept forever, like day buckets.
import { sql, type Kysely, type Migration } from 'kysely';

const WEEK_MS = 7 * 86_400_000;
const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;

export const keyStatsWeeks: Migration = {
  async up(db: Kysely<unknown>) {
    const sums = sql.raw(COUNTERS.map((counter) => `sum(${counter})`).join(', '));
    const counters = sql.raw(COUNTERS.join(', '));
    const week = sql`bucket_start - (bucket_start % ${sql.lit(WEEK_MS)})`;
    await sql`insert into usage_stats_keys (bucket, bucket_start, user_id, key_id, ${counters})
      select 'week', ${week}, user_id, key_id, ${sums} from usage_stats_keys where bucket = 'day'
      group by ${week}, user_id, key_id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from usage_stats_keys where bucket = 'week'`.execute(db);
  },
};
