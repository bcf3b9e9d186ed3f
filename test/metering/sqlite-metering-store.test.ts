// The SQLite metering worker writes with its own prepared statements (src/metering/sqlite-metering-store.ts)
// instead of Kysely. The same batches written both ways, into two databases, must leave the same tables:
// usage logs, wallet ledger and balances, keys' spend, the statistics and both roll-ups, dead letters, and
// a retry of a batch that was already written must change nothing. Either side going wrong fails the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { insertApiKey } from '../../src/db/repositories/api-keys.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import { findBalanceMismatches } from '../../src/db/repositories/wallet-ledger.ts';
import type { NewUsageLog } from '../../src/db/schema.ts';
import { createMeteringBatchWriter, type MeteringBatchWriter } from '../../src/metering/metering-batch-writer.ts';
import type { MeteringEntry } from '../../src/metering/metering-writer.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 20, 23, 59, 30);

/** A varied batch: two users, a key and none, failures, several models, times across minutes, hours and days. */
function batch(prefix: string, ids: { users: number[]; keys: number[] }, count: number): MeteringEntry[] {
  return Array.from({ length: count }, (_, index): MeteringEntry => {
    const log: NewUsageLog = {
      created_at: START + index * 7_919_000 % (3 * DAY), request_id: `${prefix}-${index}`,
      user_id: ids.users[index % 2]!, key_id: index % 3 === 0 ? null : ids.keys[index % 2]!, key_name: 'k',
      model: ['gpt-4o-mini', 'claude-bench', 'gemini'][index % 3]!, upstream_model: 'u', channel_id: 1,
      inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: index % 2, status: index % 5 === 0 ? 502 : 200,
      latency_ms: index, ttft_ms: index % 2 ? 4 : null, input_tokens: 10 + index, cached_tokens: index % 4,
      output_tokens: 5 * index, reasoning_tokens: 0, cost_micros: index % 5 === 0 ? 0 : 100 + index, error: index % 5 === 0 ? 'upstream said no' : null,
      attempts_json: index % 5 === 0 ? JSON.stringify([{ status: 502 }]) : null, ...(index % 4 === 1 ? { image_count: 2, ratio_ppm: 500_000 } : {}),
    };
    return { log, chargeMicros: log.cost_micros ?? 0 };
  });
}

const dir = mkdtempSync(join(tmpdir(), 'sqlite-metering-store-'));

interface Side {
  database: Database;
  writer: MeteringBatchWriter;
  ids: { users: number[]; keys: number[] };
}

async function openSide(name: string, viaWorker: boolean): Promise<Side> {
  const url = `sqlite:${join(dir, `${name}.db`)}`;
  const database = await openDatabase(url);
  await migrateToLatest(database.db, database.engine);
  const users = [(await createUser(database.db, 'a')).id, (await createUser(database.db, 'b')).id];
  const keys = [];
  for (const [index, userId] of users.entries()) {
    keys.push((await insertApiKey(database.db, { user_id: userId, name: `k${index}`, key_hash: `hash-${index}`, key_prefix: 'sk-…' })).id);
  }
  // null: Kysely on the gateway's own connection (the reference); the URL: the worker, as the gateway runs it.
  const writer = createMeteringBatchWriter(database.db, viaWorker ? url : null);
  await writer.start();
  return { database, writer, ids: { users, keys } };
}

/** Every table a metering write touches, without the columns that differ by design (ids, batch uuids, times). */
async function tables({ database: { db } }: Side) {
  return {
    logs: await db.selectFrom('usage_logs').selectAll().orderBy('request_id').execute().then((rows) => rows.map(({ id: _id, ...row }) => row)),
    ledger: await db.selectFrom('wallet_ledger').select(['user_id', 'kind', 'amount_micros', 'note']).orderBy('user_id').orderBy('amount_micros').execute(),
    users: await db.selectFrom('users').select(['name', 'balance_micros']).orderBy('name').execute(),
    keys: await db.selectFrom('api_keys').select(['name', 'used_micros']).orderBy('name').execute(),
    stats: await db.selectFrom('usage_stats').selectAll().orderBy('bucket').orderBy('bucket_start').orderBy('user_id').orderBy('key_id').orderBy('model').execute(),
    platform: await db.selectFrom('usage_stats_platform').selectAll().orderBy('bucket').orderBy('bucket_start').orderBy('model').execute(),
    perKey: await db.selectFrom('usage_stats_keys').selectAll().orderBy('bucket').orderBy('bucket_start').orderBy('user_id').orderBy('key_id').execute(),
    dead: await db.selectFrom('metering_dead_letters').select(['request_id', 'user_id', 'key_id', 'charge_micros', 'error', 'entry_json', 'charge_applied']).orderBy('request_id').execute(),
  };
}

describe('the SQLite metering worker (prepared statements) against Kysely', () => {
  let kysely: Side;
  let worker: Side;
  beforeAll(async () => {
    [kysely, worker] = await Promise.all([openSide('kysely', false), openSide('worker', true)]);
  });
  afterAll(async () => {
    for (const side of [kysely, worker]) {
      await side?.writer.close();
      await side?.database.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the same rows after batches, a refused entry and a retry of a batch already written', async () => {
    for (const side of [kysely, worker]) {
      expect(await side.writer.write(batch('one', side.ids, 40))).toEqual({ written: 40, deadLettered: 0 });
      expect(await side.writer.write(batch('two', side.ids, 7))).toEqual({ written: 7, deadLettered: 0 });
      const withRefusal = batch('three', side.ids, 5);
      withRefusal[2]!.log = { ...withRefusal[2]!.log, model: null as never }; // NOT NULL: dead-lettered, its charge applied
      expect(await side.writer.write(withRefusal)).toEqual({ written: 4, deadLettered: 1 });
      // A retried batch whose first write had committed: nothing is written or charged twice.
      expect(await side.writer.write(batch('two', side.ids, 7), { retry: true })).toEqual({ written: 7, deadLettered: 0 });
    }
    const [expected, actual] = [await tables(kysely), await tables(worker)];
    expect(actual.logs).toHaveLength(51);
    expect(actual.dead).toHaveLength(1);
    expect(actual.stats.length).toBeGreaterThan(30);
    expect(actual.keys.every((key) => key.used_micros > 0)).toBe(true);
    expect(actual).toEqual(expected);
    expect(await findBalanceMismatches(worker.database.db)).toEqual([]);
  });
});
