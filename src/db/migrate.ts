// Runs the migrations at start. The list is a static record (no folder scan), so it works without a build.
// Kysely's Migrator takes a lock (an advisory lock on PostgreSQL), so several instances starting at once
// apply each migration exactly once.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { engineOf, type DatabaseEngine } from './engine.ts';
import type { DatabaseSchema } from './schema.ts';
import { initialSchema } from './migrations/0001-initial-schema.ts';
import { modelLimits } from './migrations/0002-model-limits.ts';
import { meteringDeadLetters } from './migrations/0003-metering-dead-letters.ts';
import { responsesTable } from './migrations/0004-responses.ts';
import { usageLogQuantities } from './migrations/0006-usage-log-quantities.ts';
import { paymentsSchema } from './migrations/0008-payments.ts';
import { accountsSchema } from './migrations/0005-accounts.ts';
import { platformStats } from './migrations/0009-platform-stats.ts';
import { responseState } from './migrations/0010-response-state.ts';
import { keyStatsCoarseBuckets } from './migrations/0011-key-stats-coarse-buckets.ts';

function migrationsFor(engine: DatabaseEngine): Record<string, Migration> {
  return {
    '0001-initial-schema': initialSchema(engine),
    '0002-model-limits': modelLimits,
    '0003-metering-dead-letters': meteringDeadLetters(engine),
    '0004-responses': responsesTable,
    '0005-accounts': accountsSchema(engine),
    '0006-usage-log-quantities': usageLogQuantities,
    '0008-payments': paymentsSchema(engine),
    '0009-platform-stats': platformStats,
    '0010-response-state': responseState,
    '0011-key-stats-coarse-buckets': keyStatsCoarseBuckets,
  };
}

/** Names of the migrations this build knows, in order. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrationsFor('sqlite'));

function migratorFor(db: Kysely<DatabaseSchema>, engine: DatabaseEngine): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(engine) };
  return new Migrator({ db, provider, migrationTableName: 'gateway_migrations', migrationLockTableName: 'gateway_migrations_lock' });
}

/** Applies every pending migration; a no-op when the schema is current. `engine` defaults to the db's own. */
export async function migrateToLatest(db: Kysely<DatabaseSchema>, engine: DatabaseEngine = engineOf(db)): Promise<string[]> {
  const { error, results } = await migratorFor(db, engine).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Database migration ${failed ? `'${failed.migrationName}' ` : ''}failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** Applies the migrations up to and including `name` (tests of a migration's backfill start from the one before). */
export async function migrateTo(db: Kysely<DatabaseSchema>, name: string, engine: DatabaseEngine = engineOf(db)): Promise<void> {
  const { error } = await migratorFor(db, engine).migrateTo(name);
  if (error) throw new Error(`Database migration to '${name}' failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
