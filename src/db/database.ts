// Opens the database named by DATABASE_URL: embedded SQLite by default, PostgreSQL for several instances.
import type { PostgresDialect as PostgresDialectClass } from 'kysely';
import { importKyselyFile, Kysely, sql, SqliteDialect } from './kysely-parts.ts';
import type pg from 'pg';
import type { DatabaseEngine } from './engine.ts';
import type { DatabaseSchema } from './schema.ts';
import { openSqliteDatabase, sqliteFileOfUrl } from './sqlite-driver.ts';
import { describePostgres, ensurePostgresDatabase } from './ensure-postgres-database.ts';

export type { DatabaseEngine } from './engine.ts';

export interface Database {
  db: Kysely<DatabaseSchema>;
  engine: DatabaseEngine;
  /** The SQLite file (or ':memory:'), for a second connection; null on PostgreSQL. */
  sqliteFile: string | null;
  close(): Promise<void>;
}

/** pg is loaded only for a PostgreSQL URL (a SQLite gateway and its metering worker never pay for it). */
async function loadPg(): Promise<typeof pg> {
  const { default: driver } = await import('pg');
  // BIGINT (int8) columns hold epoch milliseconds and micro-USD, far below 2^53: return them as numbers,
  // exactly as SQLite does, so both engines hand the code the same types. (SUM() over bigint is NUMERIC on
  // PostgreSQL: the repositories cast such aggregates back to bigint.)
  driver.types.setTypeParser(20, (value) => Number(value));
  return driver;
}

/**
 * `sqlite:./data/gateway.db`, `sqlite:/abs/path.db`, `sqlite:///abs/path.db`, `sqlite::memory:`,
 * `postgres://…` or `postgresql://…`.
 */
export async function openDatabase(url: string): Promise<Database> {
  if (url.startsWith('sqlite:')) {
    const file = sqliteFileOfUrl(url);
    if (file === '') throw new Error('DATABASE_URL sqlite: names no file: use sqlite:./data/gateway.db or sqlite::memory:');
    const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: openSqliteDatabase(file) }) });
    return { db, engine: 'sqlite', sqliteFile: file, close: () => db.destroy() };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const driver = await loadPg();
    await ensurePostgresDatabase(url);
    const pool = new driver.Pool({ connectionString: url, max: 10 });
    // An idle client losing its connection (server restart, failover) emits 'error' on the pool; unhandled,
    // that would crash the process. The pool drops the client and the next query opens a fresh one.
    pool.on('error', (error) => process.emitWarning(`PostgreSQL idle connection error: ${error.message}`));
    const { PostgresDialect } = await importKyselyFile<{ PostgresDialect: typeof PostgresDialectClass }>('./dialect/postgres/postgres-dialect.js');
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', sqliteFile: null, close: () => closePostgres(db, pool) };
  }
  throw new Error(`DATABASE_URL has an unsupported scheme ${describeScheme(url)}: use sqlite:./path.db, sqlite::memory: or postgres://…`);
}

/**
 * pool.end() resolves once every client has been *asked* to end, before the sockets are closed. Waiting
 * for the pool's 'remove' events means that, once close() resolves, the server has no session of ours left
 * (a DROP DATABASE or a failover right after then meets no half-closed connection). Bounded: a dead server
 * must not hold up shutdown.
 */
async function closePostgres(db: Kysely<DatabaseSchema>, pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let removed = 0;
  const allRemoved = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => ++removed >= open && resolve());
  });
  await db.destroy();
  await Promise.race([allRemoved, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
}

/** For messages to the operator: the SQLite file, or the PostgreSQL database and server; never a password. */
export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return `at ${url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')}`;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return describePostgres(url);
  return describeScheme(url);
}

/** Names the scheme only: the rest of a URL may hold a password. */
function describeScheme(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return match ? `'${match[1]}:'` : '(none: expected scheme:…)';
}

/** One trivial statement: throws when the database cannot be reached (the metering worker's probe). */
export async function pingDatabase(db: Kysely<DatabaseSchema>): Promise<void> {
  await sql`select 1`.execute(db);
}
