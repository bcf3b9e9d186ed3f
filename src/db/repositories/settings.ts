// Runtime settings edited from the dashboard: one JSON value per key.
import type { z } from 'zod';
import type { Db } from './repository-helpers.ts';
import { parseJsonColumn } from '../json-columns.ts';

/**
 * The value, parsed by the setting's schema (json-columns.ts), or undefined when the key was never set. A
 * stored value of another shape is an error naming the setting, never a guess.
 */
export async function getSetting<T>(db: Db, key: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value_json').where('key', '=', key).executeTakeFirst();
  return row ? parseJsonColumn(schema, row.value_json, `settings '${key}' value_json`) : undefined;
}

/** Writes the value (any JSON-serialisable value); one statement, so concurrent writers cannot collide. */
export async function setSetting(db: Db, key: string, value: unknown, now = Date.now()): Promise<void> {
  const valueJson = JSON.stringify(value);
  if (valueJson === undefined) throw new Error(`Setting '${key}' has no JSON form (undefined or a function): use null to clear it`);
  await db.insertInto('settings').values({ key, value_json: valueJson, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value_json: valueJson, updated_at: now })
      // Unchanged values keep their updated_at.
      .where('settings.value_json', '!=', valueJson))
    .execute();
}

export async function deleteSetting(db: Db, key: string): Promise<boolean> {
  const result = await db.deleteFrom('settings').where('key', '=', key).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
