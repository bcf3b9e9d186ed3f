// Migration 0009 fills the platform and per-key roll-ups from the usage_stats rows already there (not from
// the log, whose old rows retention may have deleted), on both engines; running it again changes nothing.
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import type { UsageStatsTable } from '../../src/db/schema.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

describe.each(withTestDatabases())('migration 0009 on $engine', (target) => {
  const database = useTestDatabase(target, { migrate: false });

  it('backfills usage_stats_platform and usage_stats_keys with usage_stats summed by model and by key', async () => {
    const { db } = database();
    await migrateTo(db, '0008-payments');
    const rows: UsageStatsTable[] = [];
    for (let i = 0; i < 400; i++) {
      rows.push({
        bucket: ['minute', 'hour', 'day'][i % 3]!, bucket_start: 1_700_000_000_000 + (i % 5) * 86_400_000, user_id: 1 + (i % 4), key_id: 10 + (i % 7),
        model: `m${i % 6}`, requests: 1 + (i % 3), errors: i % 2, input_tokens: 100 * i, output_tokens: 7 * i, cost_micros: 2 ** 40 + i,
      });
    }
    const unique = new Map(rows.map((row) => [`${row.bucket}|${row.bucket_start}|${row.user_id}|${row.key_id}|${row.model}`, row]));
    await db.insertInto('usage_stats').values([...unique.values()]).execute();
    expect(await migrateToLatest(db)).toContain('0009-platform-stats');

    const sum = (group: (row: UsageStatsTable) => Record<string, unknown>) => {
      const sums = new Map<string, Record<string, number | unknown>>();
      for (const row of unique.values()) {
        const id = JSON.stringify(group(row));
        const total = sums.get(id) ?? { ...group(row), requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 };
        for (const counter of ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const) total[counter] = (total[counter] as number) + row[counter];
        sums.set(id, total);
      }
      return [...sums.values()].map((row) => JSON.stringify(row)).sort();
    };
    const platform = await db.selectFrom('usage_stats_platform').select(['bucket', 'bucket_start', 'model', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros']).execute();
    expect(platform.map((row) => JSON.stringify(row)).sort()).toEqual(sum((row) => ({ bucket: row.bucket, bucket_start: row.bucket_start, model: row.model })));
    // (Migration 0011 adds six-hour and week rows to usage_stats_keys: key-stats-coarse-buckets-migration.test.ts.)
    const keys = await db.selectFrom('usage_stats_keys').where('bucket', 'not in', ['six_hours', 'week']).select(['bucket', 'bucket_start', 'user_id', 'key_id', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros']).execute();
    expect(keys.map((row) => JSON.stringify(row)).sort()).toEqual(sum((row) => ({ bucket: row.bucket, bucket_start: row.bucket_start, user_id: row.user_id, key_id: row.key_id })));
    expect(await migrateToLatest(db)).toEqual([]);
  });
});
