// Runs the migrations at start. The list is a static record (no folder scan), so it works without a build.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseEngine } from './database.ts';
import type { DatabaseSchema } from './schema.ts';
import { initialSchema } from './migrations/0001-initial-schema.ts';
import { modelLimits } from './migrations/0002-model-limits.ts';

function migrationsFor(engine: DatabaseEngine): Record<string, Migration> {
  return {
    '0001-initial-schema': initialSchema(engine),
    '0002-model-limits': modelLimits,
  };
}

export async function migrateToLatest(db: Kysely<DatabaseSchema>, engine: DatabaseEngine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(engine) };
  const migrator = new Migrator({ db, provider, migrationTableName: 'gateway_migrations', migrationLockTableName: 'gateway_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Database migration ${failed ? `'${failed.migrationName}' ` : ''}failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
