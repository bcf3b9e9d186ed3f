// CPU per entry of the SQLite metering worker's write (src/metering/sqlite-metering-store.ts), in process:
// a migrated SQLite file, one user and key, batches of N typical calls (as the write-behind queue hands
// them over, decoded from the flat array as the worker does) written one transaction each. Prints this
// thread's CPU per entry for what the worker does with a batch (decoding, safeMeteringEntry and the write,
// through writeIsolatingRefusals), for the store's write alone (decoding included) and for the decoding.
// `node bench/metering-store-write.ts [batch size, default 100] [batches, default 400] [--without-log-indexes]
// [--users=N]` (--without-log-indexes drops usage_logs' secondary indexes, to see what they cost; the gateway
// needs them; --users spreads the calls over N users with a key each, default 1, for the charges' and
// roll-ups' share; env PRAGMAS='pragma …;pragma …' runs them on the writing connection first, to try
// settings); figures in docs/performance.md (issue 16; "Metering worker write (fifth session, meterwrite)").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { insertApiKey } from '../src/db/repositories/api-keys.ts';
import { createUser } from '../src/db/repositories/users.ts';
import { openSqliteFile } from '../src/db/sqlite-driver.ts';
import { decodeMeteringBatch, encodeMeteringBatch } from '../src/metering/metering-batch-encoding.ts';
import { writeIsolatingRefusals } from '../src/metering/isolate-refused-rows.ts';
import type { MeteringEntry } from '../src/metering/metering-writer.ts';
import { sqliteMeteringStore } from '../src/metering/sqlite-metering-store.ts';

const size = Number(process.argv[2] ?? 100);
const batches = Number(process.argv[3] ?? 400);
const withoutLogIndexes = process.argv.includes('--without-log-indexes');
const userCount = Number(process.argv.find((arg) => arg.startsWith('--users='))?.slice('--users='.length) ?? 1);
const dir = mkdtempSync(join(tmpdir(), 'metering-store-write-'));
const file = join(dir, 'bench.db');
const database = await openDatabase(`sqlite:${file}`);
await migrateToLatest(database.db, database.engine);
const users: { userId: number; keyId: number }[] = [];
for (let index = 0; index < userCount; index++) {
  const userId = (await createUser(database.db, `bench-${index}`)).id;
  const keyId = (await insertApiKey(database.db, { user_id: userId, name: 'bench', key_hash: `hash-${index}`, key_prefix: 'sk-…' })).id;
  users.push({ userId, keyId });
}
await database.close();

let serial = 0;
/** A typical finished call, as usage-recorder.ts queues it. */
const entry = (): MeteringEntry => {
  const { userId, keyId } = users[serial % users.length]!;
  return {
    chargeMicros: 1_234,
    log: {
      created_at: Date.now(), request_id: `req_${(serial++).toString(16).padStart(32, '0')}`, user_id: userId, key_id: keyId,
      key_name: 'bench key', model: 'gpt-4o-mini', upstream_model: 'gpt-4o-mini', channel_id: 1, inbound_format: 'openai-chat',
      endpoint: '/v1/chat/completions', stream: 0, status: 200, latency_ms: 3, ttft_ms: null, input_tokens: 12, cached_tokens: 0,
      output_tokens: 9, reasoning_tokens: 0, cost_micros: 1_234, error: null, cache_write_tokens: 0, image_count: 0, image_size: null,
      image_quality: null, audio_ms: 0, characters: 0, searches: 0, requests: 1, ratio_ppm: 1_000_000, tokens_counted: 0,
      error_code: null, attempts_json: null,
    },
  };
};
const flatBatch = () => encodeMeteringBatch(Array.from({ length: size }, entry));

const connection = openSqliteFile(file);
if (withoutLogIndexes) {
  const indexes = connection.prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'usage_logs' and sql is not null`).all() as { name: string }[];
  for (const { name } of indexes) connection.exec(`drop index ${name}`);
  process.stdout.write(`dropped ${indexes.map((index) => index.name).join(', ')}\n`);
}
if (process.env.PRAGMAS) for (const pragma of process.env.PRAGMAS.split(';')) connection.exec(pragma);
const store = sqliteMeteringStore(connection);

/** This thread's CPU per entry, in µs, over `batches` batches (after a warm-up of a tenth as many). */
async function measure(label: string, work: (flat: unknown[]) => Promise<void> | void): Promise<void> {
  const inputs = Array.from({ length: batches + Math.ceil(batches / 10) }, flatBatch);
  for (const flat of inputs.splice(0, Math.ceil(batches / 10))) await work(flat);
  const start = process.threadCpuUsage();
  for (const flat of inputs) await work(flat);
  const used = process.threadCpuUsage(start);
  process.stdout.write(`${label.padEnd(40)} ${((used.user + used.system) / batches / size).toFixed(2)} µs per entry\n`);
}

for (let round = 1; round <= 3; round++) {
  process.stdout.write(`round ${round}, batches of ${size}\n`);
  await measure('decode + safe + write (the worker)', async (flat) => void await writeIsolatingRefusals(store, decodeMeteringBatch(flat)));
  await measure('decode + store.writeBatch', (flat) => store.writeBatch(decodeMeteringBatch(flat)));
  await measure('decode only', (flat) => void decodeMeteringBatch(flat));
}
connection.close();
rmSync(dir, { recursive: true, force: true });
