// Ways to insert usage logs with node:sqlite, CPU per row, to choose how the SQLite metering worker writes
// them (src/metering/sqlite-metering-store.ts; figures in docs/performance.md, "Metering worker write (fifth
// session, meterwrite)"). A migrated SQLite file, batches of N typical rows, one transaction per batch.
// `node bench/usage-log-insert-variants.ts [batch size, default 1000] [batches, default 60] [variant,variant…]
// [--without-log-indexes]`, env OR='or rollback' for the multi-row inserts' conflict clause, PRAGMAS='pragma …'
// for the connection. Run one variant per process, alternating, several times: the file grows as it runs,
// so variants later in one process write into a larger table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatementSync } from 'node:sqlite';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { NewUsageLog } from '../src/db/schema.ts';
import { openSqliteFile, toSqlValue } from '../src/db/sqlite-driver.ts';
import { USAGE_LOG_COLUMNS, USAGE_LOG_DEFAULTS } from '../src/db/usage-log-columns.ts';

const size = Number(process.argv[2] ?? 1000);
const batches = Number(process.argv[3] ?? 60);
const only = process.argv[4]?.startsWith('--') ? undefined : process.argv[4];
const dir = mkdtempSync(join(tmpdir(), 'usage-log-insert-variants-'));
const file = join(dir, 'bench.db');
const database = await openDatabase(`sqlite:${file}`);
await migrateToLatest(database.db, database.engine);
await database.close();
const db = openSqliteFile(file);
if (process.argv.includes('--without-log-indexes')) {
  for (const { name } of db.prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'usage_logs' and sql is not null`).all() as { name: string }[]) db.exec(`drop index ${name}`);
}
if (process.env.PRAGMAS) for (const pragma of process.env.PRAGMAS.split(';')) db.exec(pragma);

const COLUMNS = USAGE_LOG_COLUMNS;
const tuple = (count: number) => `(${Array.from({ length: count }, () => '?').join(',')})`;
db.exec(`create table plain (${COLUMNS.join(',')})`);
let serial = 0;
const row = (): NewUsageLog => ({
  created_at: Date.now(), request_id: `req_${(serial++).toString(16).padStart(32, '0')}`, user_id: 1, key_id: 1,
  key_name: 'bench key', model: 'gpt-4o-mini', upstream_model: 'gpt-4o-mini', channel_id: 1, inbound_format: 'openai-chat',
  endpoint: '/v1/chat/completions', stream: 0, status: 200, latency_ms: 3, ttft_ms: null, input_tokens: 12, cached_tokens: 0,
  output_tokens: 9, reasoning_tokens: 0, cost_micros: 1_234, error: null, cache_write_tokens: 0, image_count: 0, image_size: null,
  image_quality: null, audio_ms: 0, characters: 0, searches: 0, requests: 1, ratio_ppm: 1_000_000, tokens_counted: 0,
  error_code: null, attempts_json: null,
});

const single = db.prepare(`insert into usage_logs (${COLUMNS.join(',')}) values ${tuple(COLUMNS.length)}`);
const plain = db.prepare(`insert into plain values ${tuple(COLUMNS.length)}`);
const selectOnly = db.prepare(`select ${Array.from({ length: COLUMNS.length }, () => '?').join(',')}`);
const json = db.prepare(`insert into usage_logs (${COLUMNS.join(',')}) select ${COLUMNS.map((_, index) => `value ->> ${index}`).join(',')} from json_each(?)`);
const multiStatements = new Map<number, StatementSync>();
const multi = (rows: number) => {
  let statement = multiStatements.get(rows);
  if (!statement) multiStatements.set(rows, statement = db.prepare(`insert ${process.env.OR ?? ''} into usage_logs (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, () => tuple(COLUMNS.length)).join(',')}`));
  return statement;
};

type Convert = typeof toSqlValue;
const valuesOf = new Function('log', `return [${COLUMNS.map((column) => `log.${column} ?? ${JSON.stringify(USAGE_LOG_DEFAULTS[column] ?? null)}`).join(', ')}];`) as (log: NewUsageLog) => unknown[];
const runDirect = new Function('statement', 'log', 'convert', `return statement.run(${COLUMNS.map((column) => `convert(log.${column} ?? ${JSON.stringify(USAGE_LOG_DEFAULTS[column] ?? null)})`).join(', ')});`) as
  (statement: StatementSync, log: NewUsageLog, convert: Convert) => void;
const fill = new Function('values', 'at', 'log', 'convert', COLUMNS.map((column, index) => `values[at + ${index}] = convert(log.${column} ?? ${JSON.stringify(USAGE_LOG_DEFAULTS[column] ?? null)});`).join('\n')) as
  (values: unknown[], at: number, log: NewUsageLog, convert: Convert) => void;

function multiRows(rows: NewUsageLog[], perStatement: number) {
  const values = new Array(perStatement * COLUMNS.length).fill(null);
  let at = 0;
  for (; rows.length - at >= perStatement; at += perStatement) {
    for (let index = 0; index < perStatement; index++) fill(values, index * COLUMNS.length, rows[at + index]!, toSqlValue);
    multi(perStatement).run(...values);
  }
  for (; at < rows.length; at++) runDirect(single, rows[at]!, toSqlValue);
}

const variants: Record<string, (rows: NewUsageLog[]) => void> = {
  // What the worker did before: two arrays per row and a spread.
  current: (rows) => { for (const log of rows) single.run(...COLUMNS.map((column) => log[column] ?? USAGE_LOG_DEFAULTS[column] ?? null).map(toSqlValue)); },
  // One generated call per row with the 32 values as arguments.
  direct: (rows) => { for (const log of rows) runDirect(single, log, toSqlValue); },
  reuseArgs: (rows) => { const values = new Array(COLUMNS.length).fill(null); for (const log of rows) { fill(values, 0, log, toSqlValue); single.run(...values); } },
  multi16: (rows) => multiRows(rows, 16),
  multi32: (rows) => multiRows(rows, 32),
  multi64: (rows) => multiRows(rows, 64),
  multi128: (rows) => multiRows(rows, 128),
  json: (rows) => { json.run(JSON.stringify(rows.map(valuesOf))); },
  // Where the time goes: binding 32 values to a statement that writes nothing, and a table without indexes.
  bindOnlySelect: (rows) => { for (const log of rows) runDirect(selectOnly, log, toSqlValue); },
  plainTable: (rows) => { for (const log of rows) runDirect(plain, log, toSqlValue); },
};

for (let round = 0; round < 3; round++) {
  for (const name of only ? only.split(',') : Object.keys(variants)) {
    const work = variants[name]!;
    const inputs = Array.from({ length: batches + 5 }, () => Array.from({ length: size }, row));
    const write = (rows: NewUsageLog[]) => {
      db.exec('begin immediate');
      work(rows);
      db.exec('commit');
    };
    for (const rows of inputs.splice(0, 5)) write(rows);
    const start = process.threadCpuUsage();
    for (const rows of inputs) write(rows);
    const used = process.threadCpuUsage(start);
    process.stdout.write(`${name.padEnd(16)} ${((used.user + used.system) / batches / size).toFixed(2)} µs per row\n`);
  }
}
db.close();
rmSync(dir, { recursive: true, force: true });
