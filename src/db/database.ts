// Opens the database named by DATABASE_URL: embedded SQLite by default, PostgreSQL for several instances.
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from './schema.ts';
import { openSqliteDatabase } from './sqlite-driver.ts';

export type DatabaseEngine = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DatabaseSchema>;
  engine: DatabaseEngine;
  close(): Promise<void>;
}

// BIGINT (int8) columns hold epoch milliseconds and micro-USD, far below 2^53: return them as numbers,
// exactly as SQLite does, so both engines hand the code the same types.
pg.types.setTypeParser(20, (value) => Number(value));

export async function openDatabase(url: string): Promise<Database> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: openSqliteDatabase(file) }) });
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  const scheme = url.includes(':') ? url.slice(0, url.indexOf(':')) : url;
  throw new Error(`DATABASE_URL has an unsupported scheme '${scheme}': use sqlite:./path.db or postgres://…`);
}
