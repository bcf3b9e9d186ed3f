// The SQLite metering worker: batches written on its own connection land in the file the gateway reads,
// an entry the database refuses is set aside (dead-lettered) without taking the batch or the worker down,
// and close() waits for what was sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import type { NewUsageLog } from '../../src/db/schema.ts';
import { createMeteringBatchWriter, type MeteringBatchWriter } from '../../src/metering/metering-batch-writer.ts';
import type { MeteringEntry } from '../../src/metering/metering-writer.ts';

function entry(requestId: string, userId: number, costMicros: number): MeteringEntry {
  const log: NewUsageLog = {
    created_at: Date.now(), request_id: requestId, user_id: userId, key_id: 1, key_name: 'k', model: 'gpt-4o-mini',
    upstream_model: 'gpt-4o-mini', channel_id: 1, inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: 0,
    status: 200, latency_ms: 3, ttft_ms: null, input_tokens: 10, cached_tokens: 0, output_tokens: 5, reasoning_tokens: 0,
    cost_micros: costMicros, error: null, attempts_json: null,
  };
  return { log, chargeMicros: costMicros };
}

describe('SQLite metering worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'metering-worker-'));
  let database: Database;
  let writer: MeteringBatchWriter;
  let userId: number;

  beforeAll(async () => {
    database = await openDatabase(`sqlite:${join(dir, 'gateway.db')}`);
    await migrateToLatest(database.db, database.engine);
    userId = (await createUser(database.db, 'wallet-owner')).id;
    writer = createMeteringBatchWriter(database.db, `sqlite:${join(dir, 'gateway.db')}`);
  });
  afterAll(async () => {
    await writer.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes logs, charges and statistics that the gateway connection then reads', async () => {
    await writer.write([entry('req-a', userId, 1_500), entry('req-b', userId, 2_500)]);
    const logs = await database.db.selectFrom('usage_logs').select(['request_id', 'cost_micros']).orderBy('request_id').execute();
    expect(logs).toEqual([{ request_id: 'req-a', cost_micros: 1_500 }, { request_id: 'req-b', cost_micros: 2_500 }]);
    const user = await database.db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user.balance_micros).toBe(-4_000);
    const ledger = await database.db.selectFrom('wallet_ledger').select('amount_micros').where('user_id', '=', userId).execute();
    expect(ledger.reduce((sum, row) => sum + row.amount_micros, 0)).toBe(-4_000);
    const stats = await database.db.selectFrom('usage_stats').select('requests').where('bucket', '=', 'day').execute();
    expect(stats.reduce((sum, row) => sum + row.requests, 0)).toBe(2);
  });

  it('sets a refused entry aside with its error, writes the rest, and keeps serving', async () => {
    const broken = entry('req-broken', userId, 100);
    broken.log = { ...broken.log, model: null as never }; // NOT NULL violation
    await expect(writer.write([entry('req-c', userId, 100), broken])).resolves.toEqual({ written: 1, deadLettered: 1 });
    expect(await database.db.selectFrom('usage_logs').select('request_id').where('request_id', 'in', ['req-c', 'req-broken']).execute()).toEqual([{ request_id: 'req-c' }]);
    const dead = await database.db.selectFrom('metering_dead_letters').selectAll().execute();
    expect(dead).toMatchObject([{ request_id: 'req-broken', charge_micros: 100, charge_applied: 1 }]);
    expect(dead[0]!.error).toMatch(/NOT NULL/i);

    await writer.write([entry('req-d', userId, 100)]);
    expect(await database.db.selectFrom('usage_logs').select('request_id').where('request_id', '=', 'req-d').execute()).toHaveLength(1);
  });

  it('finishes what was sent before close() resolves', async () => {
    const pending = writer.write([entry('req-e', userId, 100)]);
    await writer.close();
    await pending;
    expect(await database.db.selectFrom('usage_logs').select('request_id').where('request_id', '=', 'req-e').execute()).toHaveLength(1);
  });
});

describe('SQLite metering worker lifetime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'metering-worker-life-'));
  const url = `sqlite:${join(dir, 'gateway.db')}`;
  let database: Database;
  let userId: number;
  const logged = async (requestId: string) => (await database.db.selectFrom('usage_logs').select('request_id').where('request_id', '=', requestId).execute()).length;

  beforeAll(async () => {
    database = await openDatabase(url);
    await migrateToLatest(database.db, database.engine);
    userId = (await createUser(database.db, 'lifetime-owner')).id;
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('boots no worker before an entry is queued, and one when it is', async () => {
    const writer = createMeteringBatchWriter(database.db, url);
    await writer.start();
    expect(writer.workerRunning).toBe(false);
    writer.prepare();
    expect(writer.workerRunning).toBe(true);
    await writer.write([entry('life-a', userId, 100)]);
    expect(await logged('life-a')).toBe(1);
    await writer.close();
    expect(writer.workerRunning).toBe(false);
  });

  it('stops an idle worker, and the next write boots a new one that writes', async () => {
    const writer = createMeteringBatchWriter(database.db, url, { idleStopMs: 20 });
    await writer.write([entry('life-b', userId, 100)]);
    await vi.waitFor(() => expect(writer.workerRunning).toBe(false));
    await writer.write([entry('life-c', userId, 100)]);
    expect(await logged('life-b') + await logged('life-c')).toBe(2);
    await writer.close();
  });
});
