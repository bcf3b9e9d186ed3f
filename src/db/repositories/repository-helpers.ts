// Small pieces the repositories share: transactions that compose, and "what changed" for idempotent upserts.
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../schema.ts';

export type Db = Kysely<DatabaseSchema>;

export type UpsertAction = 'inserted' | 'updated' | 'unchanged';

export interface UpsertResult<Row> {
  row: Row;
  action: UpsertAction;
}

/**
 * Runs `work` in a transaction, or inside the caller's one when `db` already is a transaction (Kysely
 * refuses nested transactions; the config applier wraps many repository calls in one).
 */
export async function inTransaction<T>(db: Db, work: (trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<DatabaseSchema>);
  return db.transaction().execute(work);
}

/**
 * The fields of `desired` whose values differ from `existing`; undefined fields are "not given" and
 * ignored. Empty when an upsert would change nothing, so the row (and its updated_at) stays as it is.
 */
export function changedFields<Row extends object>(existing: Row, desired: Partial<Row>): Partial<Row> {
  const changed: Partial<Row> = {};
  for (const [field, value] of Object.entries(desired)) {
    if (value === undefined) continue;
    if ((existing as Record<string, unknown>)[field] !== value) (changed as Record<string, unknown>)[field] = value;
  }
  return changed;
}

export function hasFields(fields: object): boolean {
  return Object.keys(fields).length > 0;
}

/** Splits `rows` into chunks of at most `size`, to keep statements under the engines' parameter limits. */
export function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}
