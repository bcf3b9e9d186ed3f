// The one place the two engines' DDL differs: auto-incrementing primary keys.
import type { ColumnDefinitionBuilder, ColumnDataType } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';

export function idColumn(engine: DatabaseEngine): { type: ColumnDataType; build: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder } {
  return engine === 'postgres'
    ? { type: 'bigserial', build: (c) => c.primaryKey() }
    : { type: 'integer', build: (c) => c.primaryKey().autoIncrement() };
}
