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

export async function listGroups(db: Db): Promise<GroupRow[]> {
  return db.selectFrom('groups').selectAll().orderBy('name').execute();
}
