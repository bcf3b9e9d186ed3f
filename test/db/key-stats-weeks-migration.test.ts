// Migration 0011 adds week buckets to usage_stats_keys, summed from its day buckets (epoch-aligned weeks of
// 7 days), on both engines; other buckets are untouched and running it again changes nothing.
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import type { UsageStatsKeysTable } from '../../src/db/schema.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

const DAY = 86_400_000;
const WEEK = 7 * DAY;

describe.each(withTestDatabases())('migration 0011 on $engine', (target) => {
  const database = useTestDatabase(target, { migrate: false });

  it('backfills week buckets in usage_stats_keys from its day buckets', async () => {
    const { db } = database();
    await migrateTo(db, '0010-response-state');
    const rows = new Map<string, UsageStatsKeysTable>();
    for (let i = 0; i < 300; i++) {
      // 20 consecutive days from a Monday (epoch weeks start on Thursdays): 3 + 7 + 7 + 3 days; counters past 2^32.
      const row = {
        bucket: ['minute', 'hour', 'day', 'day'][i % 4]!, bucket_start: 1_700_438_400_000 + (i % 20) * DAY, user_id: 1 + (i % 3), key_id: 10 + (i % 5),
        requests: 1 + (i % 4), errors: i % 2, input_tokens: 100 * i, output_tokens: 7 * i, cost_micros: 2 ** 40 + i,
      };
      rows.set(`${row.bucket}|${row.bucket_start}|${row.user_id}|${row.key_id}`, row);
    }
    await db.insertInto('usage_stats_keys').values([...rows.values()]).execute();
    expect(await migrateToLatest(db)).toContain('0011-key-stats-weeks');

    const weeks = new Map<string, UsageStatsKeysTable>();
    for (const row of rows.values()) {
      if (row.bucket !== 'day') continue;
      const start = row.bucket_start - (row.bucket_start % WEEK);
      const id = `${start}|${row.user_id}|${row.key_id}`;
      const week = weeks.get(id) ?? { bucket: 'week', bucket_start: start, user_id: row.user_id, key_id: row.key_id, requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 };
      for (const counter of ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const) week[counter] += row[counter];
      weeks.set(id, week);
    }
    expect(new Set([...weeks.values()].map((week) => week.bucket_start)).size).toBe(4);
    const order = (list: readonly object[]) => list.map((row) => JSON.stringify(row)).sort();
    const stored = async () => order(await db.selectFrom('usage_stats_keys').select(['bucket', 'bucket_start', 'user_id', 'key_id', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros']).execute());
    expect(await stored()).toEqual(order([...rows.values(), ...weeks.values()]));
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await stored()).toEqual(order([...rows.values(), ...weeks.values()]));
  });
});
