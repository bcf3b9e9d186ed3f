// The metering writer on both engines, through its worker as the gateway uses it: text PostgreSQL would
// refuse (NUL, lone surrogates) and absurd lengths are stored safely; an entry the database still refuses is
// split out to metering_dead_letters with its error and its charge (applied, or kept when it cannot be),
// and the rest of its batch is written; an unreachable database is an outage, never a dead letter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import { findBalanceMismatches } from '../../src/db/repositories/wallet-ledger.ts';
import type { NewUsageLog } from '../../src/db/schema.ts';
import { createMeteringBatchWriter, type MeteringBatchWriter } from '../../src/metering/metering-batch-writer.ts';
import { MeteringWriteInterrupted } from '../../src/metering/isolate-refused-rows.ts';
import type { MeteringEntry } from '../../src/metering/metering-writer.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';

function entry(requestId: string, userId: number, costMicros: number, log: Partial<NewUsageLog> = {}): MeteringEntry {
  return {
    chargeMicros: costMicros,
    log: {
      created_at: Date.now(), request_id: requestId, user_id: userId, key_id: null, key_name: 'k', model: 'gpt-4o-mini',
      upstream_model: 'gpt-4o-mini', channel_id: 1, inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: 0,
      status: 200, latency_ms: 3, ttft_ms: null, input_tokens: 10, cached_tokens: 0, output_tokens: 5, reasoning_tokens: 0,
      cost_micros: costMicros, error: null, attempts_json: null, ...log,
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'metering-refused-'));
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await createTestPostgres();
});
afterAll(async () => {
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['SQLite', () => `sqlite:${join(dir, 'refused.db')}`],
  ['PostgreSQL', () => postgres.url],
])('metering writes on %s', (_engine, url) => {
  let database: Database;
  let writer: MeteringBatchWriter;
  let userId: number;

  beforeAll(async () => {
    database = await openDatabase(url());
    await migrateToLatest(database.db, database.engine);
    userId = (await createUser(database.db, 'payer')).id;
    writer = createMeteringBatchWriter(database.db, url());
    await writer.start();
  });
  afterAll(async () => {
    await writer?.close();
    await database?.close();
  });

  it('stores NUL, lone surrogates and a 1 MB error text safely, and bounds what it stores', async () => {
    const echoed = `Invalid value for 'role': 'x\u0000y' \ud800 ${'z'.repeat(1_000_000)}`;
    const outcome = await writer.write([
      entry('req-nul', userId, 1_000, { error: echoed, model: 'm\u0000odel\udc00', attempts_json: JSON.stringify([{ error: echoed }]) }),
      entry('req-plain', userId, 2_000),
    ]);
    expect(outcome).toEqual({ written: 2, deadLettered: 0 });
    const row = await database.db.selectFrom('usage_logs').selectAll().where('request_id', '=', 'req-nul').executeTakeFirstOrThrow();
    expect(row.error).toMatch(/^Invalid value for 'role': 'x\uFFFDy' \uFFFD z+… \[\d+ more characters cut\]$/);
    expect(row.error!.length).toBeLessThanOrEqual(2_000);
    expect(row.model).toBe('m\uFFFDodel\uFFFD');
    expect(JSON.parse(row.attempts_json!)).toMatchObject({ truncated: true });
    expect(row.attempts_json!.length).toBeLessThanOrEqual(8_000);
  });

  it('sets refused entries aside, writes the rest of the batch, and keeps a charge its user can no longer pay', async () => {
    const leaving = (await createUser(database.db, 'leaving')).id;
    // Refused by the database: a usage row without a model, and the charge of a user deleted meanwhile.
    const batch = [
      entry('ok-1', userId, 100),
      entry('no-model', userId, 300, { model: null as never }),
      entry('ok-2', userId, 100),
      entry('gone-user', leaving, 700),
      entry('ok-3', userId, 100),
    ];
    await database.db.deleteFrom('users').where('id', '=', leaving).execute();
    const before = (await database.db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirstOrThrow()).balance_micros;

    expect(await writer.write(batch)).toEqual({ written: 3, deadLettered: 2 });

    const logged = await database.db.selectFrom('usage_logs').select('request_id').where('request_id', 'in', batch.map((e) => e.log.request_id)).orderBy('request_id').execute();
    expect(logged.map((row) => row.request_id)).toEqual(['ok-1', 'ok-2', 'ok-3']);
    const dead = await database.db.selectFrom('metering_dead_letters').selectAll().orderBy('request_id').execute();
    expect(dead.map(({ request_id, charge_micros, charge_applied }) => ({ request_id, charge_micros, charge_applied }))).toEqual([
      { request_id: 'gone-user', charge_micros: 700, charge_applied: 0 },
      { request_id: 'no-model', charge_micros: 300, charge_applied: 1 },
    ]);
    expect(dead[0]!.error).toMatch(/foreign key|FOREIGN KEY/);
    expect(JSON.parse(dead[1]!.entry_json)).toMatchObject({ chargeMicros: 300, log: { request_id: 'no-model' } });
    // The refused usage row's charge still reached the wallet: 3 × 100 written plus 300 applied alone.
    const after = (await database.db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirstOrThrow()).balance_micros;
    expect(before - after).toBe(600);
    expect(await findBalanceMismatches(database.db)).toEqual([]);
  });

  it('skips, on a retry, the entries a failed write had committed after all: none is logged or charged twice', async () => {
    const balance = async () => (await database.db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirstOrThrow()).balance_micros;
    const start = await balance();
    const first = [entry('retry-a', userId, 10), entry('retry-b', userId, 20)];
    await writer.write(first);
    // The gateway never heard back (say the connection dropped after COMMIT), so it sends them again.
    expect(await writer.write([...first, entry('retry-c', userId, 40)], { retry: true })).toEqual({ written: 3, deadLettered: 0 });
    const logged = await database.db.selectFrom('usage_logs').select('request_id').where('request_id', 'like', 'retry-%').orderBy('request_id').execute();
    expect(logged.map((row) => row.request_id)).toEqual(['retry-a', 'retry-b', 'retry-c']);
    expect(start - (await balance())).toBe(70);
    expect(await findBalanceMismatches(database.db)).toEqual([]);
  });
});

it('treats an unreachable database as an outage: nothing done, nothing dead-lettered', async () => {
  const database = await openDatabase(postgres.url);
  const writer = createMeteringBatchWriter(database.db, 'postgres://postgres@127.0.0.1:9/nowhere');
  try {
    const failure = await writer.write([entry('req-away', 1, 100)]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MeteringWriteInterrupted);
    expect((failure as MeteringWriteInterrupted).done).toBe(0);
    expect(await database.db.selectFrom('metering_dead_letters').select('id').where('request_id', '=', 'req-away').execute()).toEqual([]);
  } finally {
    await writer.close();
    await database.close();
  }
});
