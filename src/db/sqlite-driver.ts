// node:sqlite's DatabaseSync shaped as Kysely's SqliteDatabase, so Kysely's own SqliteDialect drives it.
// Built in to Node 24: no native addon to compile or download.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** The file of a `sqlite:` DATABASE_URL (`sqlite:./a.db`, `sqlite:/abs.db`, `sqlite:///abs.db`, `sqlite::memory:`). */
export function sqliteFileOfUrl(url: string): string {
  return url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
}

/** The SQLite file opened with the gateway's settings; also used alone by the SQLite metering worker. */
export function openSqliteFile(file: string): DatabaseSync {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new DatabaseSync(file);
  // WAL lets readers proceed during a write; NORMAL sync is durable across process crashes in WAL mode.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec('PRAGMA foreign_keys = ON');
  return database;
}

export function openSqliteDatabase(file: string): SqliteDatabase {
  const database = openSqliteFile(file);
  // Compiling SQL costs more than running small statements: keep the recently used ones prepared.
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql); // re-inserted below: the Map's order is the eviction order
      } else {
        statement = wrapStatement(database.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

const STATEMENT_CACHE_SIZE = 256;

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
export function toSqlValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLInputValue;
}
