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

export function modelOf(row: ModelRow): Model {
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

export async function listModels(db: Db): Promise<Model[]> {
  return (await db.selectFrom('models').selectAll().orderBy('id').execute()).map(modelOf);
}
