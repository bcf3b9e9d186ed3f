// The metering batch crosses to the worker as one flat array (src/metering/metering-batch-encoding.ts).
// Through the real worker and a SQLite file: every usage-log column an entry sets arrives as it was sent,
// columns an entry leaves out get the table's defaults, and the charge is applied. The codec alone: a
// structured-cloned batch decodes to the entries it was made from, and a malformed batch is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import type { NewUsageLog } from '../../src/db/schema.ts';
import { USAGE_LOG_COLUMNS } from '../../src/db/usage-log-columns.ts';
import { decodeMeteringBatch, encodeMeteringBatch, ENCODED_ENTRY_WIDTH } from '../../src/metering/metering-batch-encoding.ts';
import { createMeteringBatchWriter, type MeteringBatchWriter } from '../../src/metering/metering-batch-writer.ts';

/** Every column set, none to its default, so a column dropped or shifted on the way shows. */
function fullLog(requestId: string, userId: number): NewUsageLog {
  return {
    created_at: 1_790_000_000_123, request_id: requestId, user_id: userId, key_id: 7, key_name: 'ключ 🔑', model: 'gpt-4o-mini',
    upstream_model: 'gpt-4o-mini-2024', channel_id: 3, inbound_format: 'anthropic-messages', endpoint: '/v1/messages', stream: 1,
    status: 502, latency_ms: 41, ttft_ms: 12, input_tokens: 101, cached_tokens: 11, output_tokens: 57, reasoning_tokens: 5,
    cost_micros: 987, error: 'upstream said "no"', attempts_json: '[{"channel":3,"status":502}]', cache_write_tokens: 13,
    image_count: 2, image_size: '1024x1024', image_quality: 'hd', audio_ms: 1500, characters: 321, searches: 4, requests: 1,
    ratio_ppm: 1_250_000, tokens_counted: 1, error_code: 'GW_ERR_UPSTREAM', cache_write_1h_tokens: 6, overhead_us: 142,
  };
}

describe('metering batch encoding', () => {
  it('decodes a structured-cloned batch to the entries it was made from', () => {
    const entries = [{ chargeMicros: 987, log: fullLog('a', 1) }, { chargeMicros: 0, log: { ...fullLog('b', 2), user_id: null, key_id: null, ttft_ms: null } }];
    const flat = structuredClone(encodeMeteringBatch(entries));
    expect(flat).toHaveLength(2 * ENCODED_ENTRY_WIDTH);
    expect(decodeMeteringBatch(flat)).toEqual(entries);
  });

  it('leaves the columns an entry did not set undefined, and refuses a batch cut mid-entry', () => {
    const [decoded] = decodeMeteringBatch(structuredClone(encodeMeteringBatch([{ chargeMicros: 5, log: { created_at: 1, request_id: 'r', model: 'm', inbound_format: 'f', endpoint: 'e', stream: 0, status: 200, latency_ms: 1, input_tokens: 0, cached_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cost_micros: 5 } }])));
    expect(decoded!.log.ratio_ppm).toBeUndefined();
    expect(JSON.parse(JSON.stringify(decoded))).toEqual({ chargeMicros: 5, log: { created_at: 1, request_id: 'r', model: 'm', inbound_format: 'f', endpoint: 'e', stream: 0, status: 200, latency_ms: 1, input_tokens: 0, cached_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cost_micros: 5 } });
    expect(() => decodeMeteringBatch(new Array(ENCODED_ENTRY_WIDTH + 1).fill(0))).toThrow(/whole number/);
    expect(() => decodeMeteringBatch('nope' as never)).toThrow(/whole number/);
  });
});

describe('a flat batch through the SQLite metering worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'metering-flat-'));
  const url = `sqlite:${join(dir, 'gateway.db')}`;
  let database: Database;
  let writer: MeteringBatchWriter;
  let userId: number;

  beforeAll(async () => {
    database = await openDatabase(url);
    await migrateToLatest(database.db, database.engine);
    userId = (await createUser(database.db, 'flat-owner')).id;
    await database.db.updateTable('users').set({ balance_micros: 10_000 }).where('id', '=', userId).execute();
    writer = createMeteringBatchWriter(database.db, url);
    await writer.start();
  });
  afterAll(async () => {
    await writer.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every column as sent, the defaults for those left out, and applies the charge', async () => {
    const full = { ...fullLog('flat-full', userId), key_id: null };
    const sparse: NewUsageLog = { created_at: 1_790_000_000_456, request_id: 'flat-sparse', user_id: userId, key_id: null, model: 'm', inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: 0, status: 200, latency_ms: 2,
      input_tokens: 0, cached_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cost_micros: 13 };
    expect(await writer.write([{ chargeMicros: 987, log: full }, { chargeMicros: 13, log: sparse }])).toEqual({ written: 2, deadLettered: 0 });

    const rows = await database.db.selectFrom('usage_logs').selectAll().orderBy('request_id').execute();
    expect(rows.map((row) => row.request_id)).toEqual(['flat-full', 'flat-sparse']);
    for (const column of USAGE_LOG_COLUMNS) expect(rows[0]![column], column).toEqual(full[column]);
    expect(rows[1]).toMatchObject({ key_name: null, ttft_ms: null, cache_write_tokens: 0, cache_write_1h_tokens: 0, ratio_ppm: 1_000_000, requests: 0, tokens_counted: 0, attempts_json: null, error_code: null, overhead_us: null });
    const user = await database.db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(user.balance_micros)).toBe(10_000 - 1_000);
  });
});
