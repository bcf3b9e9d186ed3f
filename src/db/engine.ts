// Which engine a Kysely instance (or transaction) talks to, read from its adapter, so functions that take
// only `db` can still pick engine-specific SQL where the two dialects truly differ.
import type { Kysely } from 'kysely';
import { PostgresAdapter, SqliteAdapter } from './kysely-parts.ts';

export type DatabaseEngine = 'sqlite' | 'postgres';

export function engineOf(db: Kysely<any>): DatabaseEngine {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  throw new Error(`Unsupported Kysely dialect '${adapter.constructor.name}': the gateway runs on SQLite or PostgreSQL`);
}
