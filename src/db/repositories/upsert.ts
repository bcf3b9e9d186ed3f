// "Upsert by natural key" for the declarative config and admin edits: insert when absent, update only the
// given fields that differ when present, and touch updated_at only when something changed, so applying the
// same config twice writes nothing the second time.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../schema.ts';
import { changedFields, hasFields, type Db, type UpsertResult } from './repository-helpers.ts';

interface UpsertSpec<Row> {
  table: keyof DatabaseSchema;
  /** The natural key, e.g. { name } or { user_id, name }; a unique constraint must cover exactly these columns. */
  key: Partial<Row>;
  /** Fields to set; undefined ones are left as they are (on insert, the column default applies). */
  fields: Partial<Row>;
  /** Column that identifies the row for the update (the primary key). */
  idColumn: keyof Row & string;
  now: number;
  /** Whether the table has created_at/updated_at columns (all upserted tables do today). */
  timestamps?: boolean;
}

export async function upsertRow<Row extends object>(db: Db, spec: UpsertSpec<Row>): Promise<UpsertResult<Row>> {
  // Kysely's types cannot follow a table chosen at run time; the typed wrappers in each repository keep
  // callers typed, this body works on the untyped builder.
  const untyped = db as unknown as Kysely<any>;
  const keyColumns = Object.keys(spec.key);
  const find = async (): Promise<Row | undefined> => {
    let query = untyped.selectFrom(spec.table).selectAll();
    for (const column of keyColumns) query = query.where(column, '=', (spec.key as Record<string, unknown>)[column]);
    return (await query.executeTakeFirst()) as Row | undefined;
  };
  const stamps = spec.timestamps === false ? {} : { created_at: spec.now, updated_at: spec.now };
  let existing = await find();
  if (!existing) {
    const values = Object.fromEntries(Object.entries({ ...spec.fields, ...spec.key, ...stamps }).filter(([, value]) => value !== undefined));
    const inserted = await untyped.insertInto(spec.table).values(values)
      .onConflict((conflict) => conflict.columns(keyColumns as never).doNothing())
      .returningAll().executeTakeFirst();
    if (inserted) return { row: inserted as Row, action: 'inserted' };
    // A concurrent writer inserted the same key between our read and insert: update that row instead.
    existing = await find();
    if (!existing) throw new Error(`Upsert into ${spec.table} lost its row: inserted concurrently, then deleted`);
  }
  const changed = changedFields(existing, spec.fields);
  if (!hasFields(changed)) return { row: existing, action: 'unchanged' };
  const updated = await untyped.updateTable(spec.table)
    .set({ ...changed, ...(spec.timestamps === false ? {} : { updated_at: spec.now }) })
    .where(spec.idColumn, '=', (existing as Record<string, unknown>)[spec.idColumn] as never)
    .returningAll().executeTakeFirstOrThrow();
  return { row: updated as Row, action: 'updated' };
}
