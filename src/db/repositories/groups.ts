// Groups: price ratio and limits shared by the keys that name them. The `default` group is seeded by the
// first migration.
import type { GroupRow, GroupsTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

type GroupFields = Partial<Omit<GroupsTable, 'id' | 'name' | 'created_at' | 'updated_at'>>;

export async function upsertGroupByName(db: Db, name: string, fields: GroupFields, now = Date.now()): Promise<UpsertResult<GroupRow>> {
  return upsertRow<GroupRow>(db, { table: 'groups', key: { name }, fields, idColumn: 'id', now });
}

export async function findGroupByName(db: Db, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Inserts the group or replaces the given fields of the stored one. */
export async function putGroupByName(db: Db, fields: Omit<GroupsTable, 'id' | 'created_at' | 'updated_at'>, now = Date.now()): Promise<GroupRow> {
  return db.insertInto('groups').values({ ...fields, created_at: now, updated_at: now })
    .onConflict((c) => c.column('name').doUpdateSet({ ...fields, updated_at: now })).returningAll().executeTakeFirstOrThrow();
}

/** The deleted group, or undefined when there was none. */
export async function deleteGroupByName(db: Db, name: string): Promise<GroupRow | undefined> {
  return db.deleteFrom('groups').where('name', '=', name).returningAll().executeTakeFirst();
}

/** Which of these names are groups. */
export async function existingGroupNames(db: Db, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  return new Set((await db.selectFrom('groups').select('name').where('name', 'in', [...new Set(names)]).execute()).map((row) => row.name));
}

export async function listGroups(db: Db): Promise<GroupRow[]> {
  return db.selectFrom('groups').selectAll().orderBy('name').execute();
}

/** The named groups' names, descriptions and ratios, by name (none for no names). */
export async function listGroupsNamed(db: Db, names: readonly string[]): Promise<Pick<GroupRow, 'name' | 'description' | 'ratio_ppm'>[]> {
  if (names.length === 0) return [];
  return db.selectFrom('groups').select(['name', 'description', 'ratio_ppm']).where('name', 'in', [...names]).orderBy('name').execute();
}
