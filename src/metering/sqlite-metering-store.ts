// The metering store as node:sqlite prepared statements, for the SQLite metering worker: the same rows as
// the Kysely writer (metering-writer.ts and the usage-logs, usage-stats, roll-up and dead-letter
// repositories), written without loading Kysely, whose 262 ESM modules cost the worker ~23 MB resident.
// test/metering/sqlite-metering-store.test.ts writes the same batches both ways and compares the tables.
// Usage logs go in as multi-row inserts (up to LOG_ROWS_PER_STATEMENT rows a statement), the roll-ups and
// charges one statement per row (a batch has few of those); all statements stay prepared for the worker's
// life. docs/performance.md, "Metering worker write (fifth session, meterwrite)", has the figures.
import { randomUUID } from 'node:crypto';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { toSqlValue } from '../db/sqlite-driver.ts';
import type { NewUsageLog } from '../db/schema.ts';
import { USAGE_LOG_COLUMNS, USAGE_LOG_DEFAULTS } from '../db/usage-log-columns.ts';
import { callsByUser, chargedEntries, statRows, sumBy, sumCounters } from './metering-rows.ts';
import { keyRows, platformRows } from './stat-rollup-rows.ts';
import type { MeteringDeadLetter, MeteringStore } from './metering-store.ts';
import type { MeteringEntry } from './metering-writer.ts';

const COUNTERS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros'] as const;
const STATS_KEYS = ['bucket', 'bucket_start', 'user_id', 'key_id', 'model'] as const;
const PLATFORM_KEYS = ['bucket', 'bucket_start', 'model'] as const;
const KEYS_KEYS = ['bucket', 'bucket_start', 'user_id', 'key_id'] as const;
const DEAD_LETTER_COLUMNS = ['created_at', 'request_id', 'user_id', 'key_id', 'charge_micros', 'error', 'entry_json', 'charge_applied'] as const;

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

/**
 * Rows per usage-log insert, largest first: a batch is written as full statements of 32 rows, then at most
 * one each of 16, 8, 4, 2 and 1, so only six SQL texts are ever prepared. Per row, statements of 32 rows
 * measured ~3.2 µs against ~5 µs for single-row statements bound the same way (what is per statement: the
 * VDBE's start and reset, cursors on the table and its four indexes each sought from the root, the bindings
 * cleared, a result object); 64 and 128 rows measured no better (bench/usage-log-insert-variants.ts).
 */
const LOG_ROWS_PER_STATEMENT = [32, 16, 8, 4, 2, 1] as const;

/**
 * `or rollback`: a constraint failure (a NOT NULL column left null) ends the whole transaction at once,
 * which is what inTransaction below does with any failure anyway. With the default `or abort`, SQLite must
 * be able to undo just the failing statement of a multi-row insert, so it copied every page the statement
 * touched into a statement journal first: a quarter to a third of the insert's CPU.
 */
function insertLogsSql(rows: number): string {
  const tuple = `(${placeholders(USAGE_LOG_COLUMNS.length)})`;
  return `insert or rollback into usage_logs (${USAGE_LOG_COLUMNS.join(',')}) values ${Array.from({ length: rows }, () => tuple).join(',')}`;
}

/**
 * Writes one log's column values into `values` from `at`, in USAGE_LOG_COLUMNS order, each absent value
 * replaced by its default (USAGE_LOG_DEFAULTS) or NULL: generated from the constant column list (property
 * reads, no intermediate arrays per row, as metering-batch-encoding.ts does), never from input.
 */
const fillLogValues = new Function('values', 'at', 'log', 'toSqlValue', USAGE_LOG_COLUMNS.map((column, index) =>
  `values[at + ${index}] = toSqlValue(log.${column} ?? ${JSON.stringify(USAGE_LOG_DEFAULTS[column] ?? null)});`).join('\n')) as
  (values: SQLInputValue[], at: number, log: NewUsageLog, convert: typeof toSqlValue) => void;

/** `insert … on conflict do update` adding the counters to the stored ones (as the Kysely repositories do). */
function addCountersSql(table: string, keys: readonly string[]): string {
  const columns = [...keys, ...COUNTERS];
  const additions = COUNTERS.map((counter) => `${counter} = ${table}.${counter} + excluded.${counter}`).join(', ');
  return `insert into ${table} (${columns.join(',')}) values (${placeholders(columns.length)}) on conflict (${keys.join(',')}) do update set ${additions}`;
}

function prepareStatements(database: DatabaseSync) {
  return {
    begin: database.prepare('begin immediate'),
    commit: database.prepare('commit'),
    insertLedger: database.prepare('insert into wallet_ledger (user_id, created_at, kind, amount_micros, reference, note) values (?,?,?,?,?,?)'),
    debitUser: database.prepare('update users set balance_micros = balance_micros - ? where id = ?'),
    addKeySpend: database.prepare('update api_keys set used_micros = used_micros + ?, last_used_at = ? where id = ?'),
    addStats: database.prepare(addCountersSql('usage_stats', STATS_KEYS)),
    addPlatform: database.prepare(addCountersSql('usage_stats_platform', PLATFORM_KEYS)),
    addKeys: database.prepare(addCountersSql('usage_stats_keys', KEYS_KEYS)),
    insertDeadLetter: database.prepare(`insert into metering_dead_letters (${DEAD_LETTER_COLUMNS.join(',')}) values (${placeholders(DEAD_LETTER_COLUMNS.length)})`),
    // One statement for any number of ids: they are passed as one JSON array.
    findLogged: database.prepare('select request_id from usage_logs where created_at >= ? and created_at <= ? and request_id in (select value from json_each(?))'),
  };
}

export function sqliteMeteringStore(database: DatabaseSync): MeteringStore {
  // Prepared at the first write, not at open: a database without its tables yet fails that write (kept
  // and retried by the queue), not the worker's start.
  let prepared: ReturnType<typeof prepareStatements> | null = null;
  const statements = () => (prepared ??= prepareStatements(database));

  /** Runs `work` in a write transaction; any error rolls it back and is rethrown as it was. */
  const inTransaction = (work: () => void) => {
    statements().begin.run();
    try {
      work();
      statements().commit.run();
    } catch (error) {
      // A failed COMMIT may have ended the transaction already; rollback then has nothing to undo.
      if (database.isTransaction) database.exec('rollback');
      throw error;
    }
  };

  const run = (statement: StatementSync, values: readonly unknown[]) => statement.run(...values.map(toSqlValue));

  // Per statement size, its statement and one array of its values, reused batch after batch.
  const logInserts = new Map<number, { statement: StatementSync; values: SQLInputValue[] }>();
  const logInsert = (rows: number) => {
    let insert = logInserts.get(rows);
    if (!insert) logInserts.set(rows, insert = { statement: database.prepare(insertLogsSql(rows)), values: new Array<SQLInputValue>(rows * USAGE_LOG_COLUMNS.length).fill(null) });
    return insert;
  };
  const insertLogs = (entries: readonly MeteringEntry[]) => {
    let start = 0;
    for (const rows of LOG_ROWS_PER_STATEMENT) {
      while (entries.length - start >= rows) {
        const { statement, values } = logInsert(rows);
        for (let row = 0; row < rows; row++) fillLogValues(values, row * USAGE_LOG_COLUMNS.length, entries[start + row]!.log, toSqlValue);
        statement.run(...values);
        start += rows;
      }
    }
  };

  const writeCharges = (entries: readonly MeteringEntry[]) => {
    const charged = chargedEntries(entries);
    if (charged.length === 0) return;
    const batch = randomUUID();
    const now = Date.now();
    const byUser = sumBy(charged, (entry) => entry.log.user_id!);
    const calls = callsByUser(charged);
    for (const [userId, total] of byUser) {
      run(statements().insertLedger, [userId, now, 'charge', -total, `usage-batch:${batch}:${userId}`, `${calls.get(userId)} calls`]);
    }
    for (const [userId, total] of byUser) run(statements().debitUser, [total, userId]);
    const byKey = sumBy(charged.filter((entry) => entry.log.key_id !== null), (entry) => entry.log.key_id!);
    for (const [keyId, total] of byKey) run(statements().addKeySpend, [total, now, keyId]);
  };

  const addStatistics = (entries: readonly MeteringEntry[]) => {
    const stats = statRows(entries);
    const write = (statement: StatementSync, keys: readonly string[]) => {
      for (const row of sumCounters(stats, keys as never)) run(statement, [...keys, ...COUNTERS].map((column) => row[column]));
    };
    write(statements().addStats, STATS_KEYS);
    // The roll-ups' rows come from the same pure functions as the Kysely repositories' (six-hour and week
    // buckets of the per-key roll-up included), so both writers leave the same tables.
    for (const row of platformRows(stats)) run(statements().addPlatform, [...PLATFORM_KEYS, ...COUNTERS].map((column) => row[column]));
    for (const row of keyRows(stats)) run(statements().addKeys, [...KEYS_KEYS, ...COUNTERS].map((column) => row[column]));
  };

  const insertDeadLetter = (row: MeteringDeadLetter) => run(statements().insertDeadLetter, DEAD_LETTER_COLUMNS.map((column) => row[column]));

  return {
    writeBatch: async (entries) => inTransaction(() => {
      insertLogs(entries);
      writeCharges(entries);
      addStatistics(entries);
    }),
    deadLetterWithCharge: async (entry, row) => inTransaction(() => {
      writeCharges([entry]);
      insertDeadLetter(row);
    }),
    insertDeadLetter: async (row) => {
      insertDeadLetter(row);
    },
    findLogged: async (requestIds, from, to) => {
      if (requestIds.length === 0) return new Set();
      const rows = statements().findLogged.all(from, to, JSON.stringify(requestIds)) as { request_id: string }[];
      return new Set(rows.map((row) => row.request_id));
    },
  };
}
