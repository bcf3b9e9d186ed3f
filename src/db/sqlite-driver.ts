// node:sqlite's DatabaseSync shaped as Kysely's SqliteDatabase, so Kysely's own SqliteDialect drives it.
// Built in to Node 24: no native addon to compile or download.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export function openSqliteDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new DatabaseSync(file);
  // WAL lets readers proceed during a write; NORMAL sync is durable across process crashes in WAL mode.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec('PRAGMA foreign_keys = ON');
  return {
    close: () => database.close(),
    prepare: (sql) => wrapStatement(database.prepare(sql)),
  };
}

function wrapStatement(statement: StatementSync): SqliteStatement {
  const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlValue);
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...params(parameters)),
    run: (parameters) => statement.run(...params(parameters)),
    iterate: (parameters) => statement.iterate(...params(parameters)) as IterableIterator<unknown>,
  };
}

/** node:sqlite refuses booleans and undefined; SQLite stores them as 0/1 and NULL anyway. */
function toSqlValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLInputValue;
}
