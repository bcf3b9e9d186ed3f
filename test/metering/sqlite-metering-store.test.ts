// The SQLite metering worker writes with its own prepared statements (src/metering/sqlite-metering-store.ts)
// instead of Kysely. The same batches written both ways, into two databases, must leave the same tables:
// usage logs, wallet ledger and balances, keys' spend, the statistics and both roll-ups, dead letters, and
// a retry of a batch that was already written must change nothing. Either side going wrong fails the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { insertApiKey } from '../../src/db/repositories/api-keys.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import { findBalanceMismatches } from '../../src/db/repositories/wallet-ledger.ts';
import type { NewUsageLog } from '../../src/db/schema.ts';
import { USAGE_LOG_COLUMNS } from '../../src/db/usage-log-columns.ts';
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

/**
 * A batch that sets every column, in every way a value can come: texts outside ASCII (and a NUL and a lone
 * surrogate, which both writers clean the same way), integers near 2^53, a fraction, a boolean, explicit
 * nulls, and columns left out (their defaults). 63 entries: the SQLite worker writes them as one statement
 * of each size it has (32, 16, 8, 4, 2 and 1 rows).
 */
function everyColumnBatch(prefix: string, ids: { users: number[]; keys: number[] }, count = 63): MeteringEntry[] {
  return Array.from({ length: count }, (_, index): MeteringEntry => {
    // Near 2^53 in columns stored as they are; tokens, summed into the statistics, stay below 2^53 summed.
    const big = Number.MAX_SAFE_INTEGER - index;
    const tokens = 2 ** 40 + index;
    const log: NewUsageLog = {
      created_at: START + index * 61_000, request_id: `${prefix}-${String(index).padStart(3, '0')}`,
      user_id: ids.users[index % 2]!, key_id: index % 4 === 0 ? null : ids.keys[index % 2]!,
      key_name: index % 3 === 0 ? null : `clé 鍵 🔑 ${index}`, model: ['modèle-ü', 'gpt-4o-mini', '模型'][index % 3]!,
      upstream_model: index % 5 === 0 ? null : 'ℹ️ upstream', channel_id: index % 6 === 0 ? null : index,
      inbound_format: 'anthropic-messages', endpoint: '/v1/messages', stream: (index % 2 === 0) as never, status: [200, 429, 500][index % 3]!,
      latency_ms: 2_147_483_647 - index, ttft_ms: index % 2 ? -1 : null, input_tokens: tokens, cached_tokens: index,
      output_tokens: tokens * 2, reasoning_tokens: index * 3, cost_micros: 1_000_000_000_000 + index,
      error: index % 3 === 2 ? `fehler ✗ «${index}» \u0000 nul and \ud800 lone` : null,
      attempts_json: index % 3 === 2 ? JSON.stringify([{ status: 500, error: 'échec 💥' }]) : null,
      cache_write_tokens: index % 7 === 0 ? null as never : big - 2, image_count: index % 2 ? 4 : undefined,
      image_size: index % 2 ? '1024×1024' : null, image_quality: index % 2 ? 'hd' : null, audio_ms: big - 3,
      characters: index % 2 ? undefined : 12_345, searches: index % 4, requests: index % 3 === 0 ? 0 : 1,
      ratio_ppm: index % 5 === 0 ? 1.5 : 750_000, tokens_counted: index % 2, error_code: index % 3 === 2 ? 'GW_ERR_UPSTREAM' : null,
    };
    return { log, chargeMicros: 1_000 + index };
  });
}

/** Every usage-log column as SQLite's quote() shows it: the value with its storage class (1 vs 1.0 vs '1'). */
function quotedLogs(file: string): unknown[] {
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    return database.prepare(`select ${USAGE_LOG_COLUMNS.map((column) => `quote(${column}) as ${column}`).join(', ')} from usage_logs order by request_id`).all();
  } finally {
    database.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sqlite-metering-store-'));

interface Side {
  file: string;
  database: Database;
  writer: MeteringBatchWriter;
  ids: { users: number[]; keys: number[] };
}

async function openSide(name: string, viaWorker: boolean): Promise<Side> {
  const file = join(dir, `${name}.db`);
  const url = `sqlite:${file}`;
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
  return { file, database, writer, ids: { users, keys } };
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

  it('stores every column as the Kysely writer does: unicode, big integers, fractions, nulls and defaults', async () => {
    for (const side of [kysely, worker]) {
      expect(await side.writer.write(everyColumnBatch('every', side.ids))).toEqual({ written: 63, deadLettered: 0 });
      // A row refused inside a 32-row statement: the whole transaction is undone, the halves are retried,
      // and only that row is dead-lettered (with its charge).
      const withRefusal = everyColumnBatch('refused', side.ids, 40);
      withRefusal[17]!.log = { ...withRefusal[17]!.log, model: null as never };
      expect(await side.writer.write(withRefusal)).toEqual({ written: 39, deadLettered: 1 });
    }
    const [expected, actual] = [quotedLogs(kysely.file), quotedLogs(worker.file)];
    expect(actual.length).toBeGreaterThanOrEqual(63 + 39);
    expect(actual.filter((row) => (row as { request_id: string }).request_id.startsWith("'every-"))).toHaveLength(63);
    expect(actual).toEqual(expected);
    expect(await tables(worker)).toEqual(await tables(kysely));
    expect(await findBalanceMismatches(worker.database.db)).toEqual([]);
  });
});
