// Public models and their prices, keyed by the model id clients send. Reads return `Model`: the row with
// its JSON columns parsed once, here (json-columns.ts), into typed values.
import type { ModelRow, ModelsTable } from '../schema.ts';
import { modelLimitsColumn, modelPricingColumn, parseJsonColumn, stringListColumn, type ModelLimits } from '../json-columns.ts';
import type { ModelPricing } from '../../metering/model-pricing.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

type ModelFields = Partial<Omit<ModelsTable, 'id' | 'created_at' | 'updated_at'>>;

export type { ModelLimits } from '../json-columns.ts';

export interface Model extends Omit<ModelRow, 'pricing_json' | 'limits_json' | 'fallbacks_json'> {
  pricing: ModelPricing;
  limits: ModelLimits;
  /** Model ids tried in order when this one fails. */
  fallbacks: string[];
}

function modelOf(row: ModelRow): Model {
  const { pricing_json, limits_json, fallbacks_json, ...rest } = row;
  const where = (column: string) => `model '${row.id}': ${column}`;
  return {
    ...rest,
    pricing: parseJsonColumn(modelPricingColumn, pricing_json, where('pricing_json')),
    // An empty text is the column's default before migration 0002 filled it.
    limits: parseJsonColumn(modelLimitsColumn, limits_json || '{}', where('limits_json')),
    fallbacks: parseJsonColumn(stringListColumn, fallbacks_json, where('fallbacks_json')),
  };
}

export async function upsertModelById(db: Db, id: string, fields: ModelFields, now = Date.now()): Promise<UpsertResult<ModelRow>> {
  return upsertRow<ModelRow>(db, { table: 'models', key: { id }, fields, idColumn: 'id', now });
}

/**
 * The row as stored: src/accounts/usage-log-reader.ts still reads it (pending, issue 27); everything
 * else reads `findModel`.
 */
export async function findModelById(db: Db, id: string): Promise<ModelRow | undefined> {
  return db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findModel(db: Db, id: string): Promise<Model | undefined> {
  const row = await findModelById(db, id);
  return row && modelOf(row);
}

/** Inserts the model or replaces the given fields of the stored one. */
export async function putModelById(db: Db, id: string, fields: Omit<ModelsTable, 'id' | 'created_at' | 'updated_at'>, now = Date.now()): Promise<Model> {
  return modelOf(await db.insertInto('models').values({ id, ...fields, created_at: now, updated_at: now })
    .onConflict((c) => c.column('id').doUpdateSet({ ...fields, updated_at: now })).returningAll().executeTakeFirstOrThrow());
}

/** The deleted model, or undefined when there was none. */
export async function deleteModelById(db: Db, id: string): Promise<Model | undefined> {
  const row = await db.deleteFrom('models').where('id', '=', id).returningAll().executeTakeFirst();
  return row && modelOf(row);
}

/** Which of these ids are models. */
export async function existingModelIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await db.selectFrom('models').select('id').where('id', 'in', [...new Set(ids)]).execute()).map((row) => row.id));
}

export async function listModels(db: Db): Promise<Model[]> {
  return (await db.selectFrom('models').selectAll().orderBy('id').execute()).map(modelOf);
}
