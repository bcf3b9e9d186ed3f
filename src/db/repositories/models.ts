// Public models and their prices, keyed by the model id clients send.
import type { ModelRow, ModelsTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

type ModelFields = Partial<Omit<ModelsTable, 'id' | 'created_at' | 'updated_at'>>;

export async function upsertModelById(db: Db, id: string, fields: ModelFields, now = Date.now()): Promise<UpsertResult<ModelRow>> {
  return upsertRow<ModelRow>(db, { table: 'models', key: { id }, fields, idColumn: 'id', now });
}

export async function findModelById(db: Db, id: string): Promise<ModelRow | undefined> {
  return db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listModels(db: Db): Promise<ModelRow[]> {
  return db.selectFrom('models').selectAll().orderBy('id').execute();
}
