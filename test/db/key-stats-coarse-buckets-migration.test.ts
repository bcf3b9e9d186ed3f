// Migration 0011 adds six-hour and week buckets to usage_stats_keys, summed from its hour and day buckets
// (epoch-aligned), on both engines; the other rows are untouched and running it again changes nothing.
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import type { UsageStatsKeysTable } from '../../src/db/schema.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;

describe.each(withTestDatabases())('migration 0011 on $engine', (target) => {
  const database = useTestDatabase(target, { migrate: false });

  it('backfills six-hour buckets from hour buckets and week buckets from day buckets', async () => {
    const { db } = database();
    await migrateTo(db, '0010-response-state');
    const rows = new Map<string, UsageStatsKeysTable>();
    for (let i = 0; i < 400; i++) {
      // Day buckets: 20 consecutive days from Monday 2023-11-20 (epoch weeks start on Thursdays: 3 + 7 + 7 + 3
      // days). Hour buckets: 20 consecutive hours from 03:00 (3 + 6 + 6 + 5 hours). Counters past 2^32.
      const bucket = ['minute', 'hour', 'day', 'day', 'hour'][i % 5]!;
      const start = 1_700_438_400_000 + (bucket === 'day' ? (i % 20) * DAY : 3 * HOUR + (i % 20) * HOUR);
      const row = { bucket, bucket_start: start, user_id: 1 + (i % 3), key_id: 10 + (i % 5), requests: 1 + (i % 4), errors: i % 2, input_tokens: 100 * i, output_tokens: 7 * i, cost_micros: 2 ** 40 + i };
      rows.set(`${row.bucket}|${row.bucket_start}|${row.user_id}|${row.key_id}`, row);
    }
    await db.insertInto('usage_stats_keys').values([...rows.values()]).execute();
    expect(await migrateToLatest(db)).toContain('0011-key-stats-coarse-buckets');

    const coarser = new Map<string, UsageStatsKeysTable>();
    for (const row of rows.values()) {
      const [bucket, size] = row.bucket === 'hour' ? ['six_hours', 6 * HOUR] : row.bucket === 'day' ? ['week', 7 * DAY] : [];
      if (bucket === undefined || size === undefined) continue;
      const start = row.bucket_start - (row.bucket_start % size);
      const id = `${bucket}|${start}|${row.user_id}|${row.key_id}`;
      const sum = coarser.get(id) ?? { bucket, bucket_start: start, user_id: row.user_id, key_id: row.key_id, requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 };
      for (const counter of COUNTERS) sum[counter] += row[counter];
      coarser.set(id, sum);
    }
    const startsOf = (bucket: string) => new Set([...coarser.values()].filter((row) => row.bucket === bucket).map((row) => row.bucket_start)).size;
    expect([startsOf('six_hours'), startsOf('week')]).toEqual([4, 4]);
    const order = (list: readonly object[]) => list.map((row) => JSON.stringify(row)).sort();
    const stored = async () => order(await db.selectFrom('usage_stats_keys').select(['bucket', 'bucket_start', 'user_id', 'key_id', ...COUNTERS]).execute());
    expect(await stored()).toEqual(order([...rows.values(), ...coarser.values()]));
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await stored()).toEqual(order([...rows.values(), ...coarser.values()]));
  });
});
