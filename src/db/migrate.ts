// Runs the migrations at start. The list is a static record (no folder scan), so it works without a build.
// Kysely's Migrator takes a lock (an advisory lock on PostgreSQL), so several instances starting at once
// apply each migration exactly once. A database that is already current (every start but the first after
// an upgrade) is recognised by one read of the migrations table, without loading the Migrator, the
// migrations or Kysely's introspection of every table.
import type { Kysely, Migration, MigrationProvider, Migrator } from 'kysely';
import { engineOf, type DatabaseEngine } from './engine.ts';
import type { DatabaseSchema } from './schema.ts';
import { importKyselyFile, sql } from './kysely-parts.ts';

const MIGRATION_TABLE = 'gateway_migrations';

/** Names of the migrations this build knows, in order; `migrationsFor` holds the same names. */
export const MIGRATION_NAMES: readonly string[] = [
  '0001-initial-schema',
  '0002-model-limits',
  '0003-metering-dead-letters',
  '0004-responses',
  '0005-accounts',
  '0006-usage-log-quantities',
  '0008-payments',
  '0009-platform-stats',
  '0010-response-state',
  '0011-key-stats-coarse-buckets',
  '0012-cache-write-1h',
  '0013-redemption-code-revocation',
  '0014-otel-overhead',
  '0015-signin-identity-providers',
  '0016-dash-ops-revenue-indexes',
  '0017-mcp-servers',
  '0018-contract-provider-settings',
  '0019-organisations',
];

async function migrationsFor(engine: DatabaseEngine): Promise<Record<string, Migration>> {
  const [m1, m2, m3, m4, m5, m6, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19] = await Promise.all([
    import('./migrations/0001-initial-schema.ts'),
    import('./migrations/0002-model-limits.ts'),
    import('./migrations/0003-metering-dead-letters.ts'),
    import('./migrations/0004-responses.ts'),
    import('./migrations/0005-accounts.ts'),
    import('./migrations/0006-usage-log-quantities.ts'),
    import('./migrations/0008-payments.ts'),
    import('./migrations/0009-platform-stats.ts'),
    import('./migrations/0010-response-state.ts'),
    import('./migrations/0011-key-stats-coarse-buckets.ts'),
    import('./migrations/0012-cache-write-1h.ts'),
    import('./migrations/0013-redemption-code-revocation.ts'),
    import('./migrations/0014-otel-overhead.ts'),
    import('./migrations/0015-signin-identity-providers.ts'),
    import('./migrations/0016-dash-ops-revenue-indexes.ts'),
    import('./migrations/0017-mcp-servers.ts'),
    import('./migrations/0018-contract-provider-settings.ts'),
    import('./migrations/0019-organisations.ts'),
  ]);
  const migrations: Record<string, Migration> = {
    '0001-initial-schema': m1.initialSchema(engine),
    '0002-model-limits': m2.modelLimits,
    '0003-metering-dead-letters': m3.meteringDeadLetters(engine),
    '0004-responses': m4.responsesTable,
    '0005-accounts': m5.accountsSchema(engine),
    '0006-usage-log-quantities': m6.usageLogQuantities,
    '0008-payments': m8.paymentsSchema(engine),
    '0009-platform-stats': m9.platformStats,
    '0010-response-state': m10.responseState,
    '0011-key-stats-coarse-buckets': m11.keyStatsCoarseBuckets,
    '0012-cache-write-1h': m12.cacheWrite1h,
    '0013-redemption-code-revocation': m13.redemptionCodeRevocation,
    '0014-otel-overhead': m14.otelOverhead,
    '0015-signin-identity-providers': m15.signinSchema(engine),
    '0016-dash-ops-revenue-indexes': m16.revenueIndexes,
    '0017-mcp-servers': m17.mcpServers(engine),
    '0018-contract-provider-settings': m18.providerSettings,
    '0019-organisations': m19.organisationsSchema(engine),
  };
  const names = Object.keys(migrations);
  if (names.length !== MIGRATION_NAMES.length || names.some((name, i) => name !== MIGRATION_NAMES[i])) {
    throw new Error('MIGRATION_NAMES and the migrations in src/db/migrate.ts differ');
  }
  return migrations;
}

async function migratorFor(db: Kysely<DatabaseSchema>, engine: DatabaseEngine): Promise<Migrator> {
  const { Migrator } = await importKyselyFile<typeof import('kysely')>('./migration/migrator.js');
  const provider: MigrationProvider = { getMigrations: () => migrationsFor(engine) };
  return new Migrator({ db, provider, migrationTableName: MIGRATION_TABLE, migrationLockTableName: 'gateway_migrations_lock' });
}

/**
 * Whether the database has applied exactly this build's migrations, in the order Kysely's Migrator
 * checks (by time applied, then name). Anything else (a new database, a pending migration, one this
 * build does not know) is left to the Migrator, which migrates or refuses as it always did.
 */
async function isCurrent(db: Kysely<DatabaseSchema>): Promise<boolean> {
  let rows: { name: string; timestamp: string }[];
  try {
    ({ rows } = await sql<{ name: string; timestamp: string }>`select ${sql.ref('name')}, ${sql.ref('timestamp')} from ${sql.table(MIGRATION_TABLE)}`.execute(db));
  } catch {
    return false; // no migrations table yet
  }
  const applied = rows
    .sort((a, b) => a.timestamp === b.timestamp ? a.name.localeCompare(b.name) : new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime())
    .map((row) => row.name);
  return applied.length === MIGRATION_NAMES.length && applied.every((name, i) => name === MIGRATION_NAMES[i]);
}

/** Applies every pending migration; a no-op when the schema is current. `engine` defaults to the db's own. */
export async function migrateToLatest(db: Kysely<DatabaseSchema>, engine: DatabaseEngine = engineOf(db)): Promise<string[]> {
  if (await isCurrent(db)) return [];
  const { error, results } = await (await migratorFor(db, engine)).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Database migration ${failed ? `'${failed.migrationName}' ` : ''}failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** Applies the migrations up to and including `name` (tests of a migration's backfill start from the one before). */
export async function migrateTo(db: Kysely<DatabaseSchema>, name: string, engine: DatabaseEngine = engineOf(db)): Promise<void> {
  const { error } = await (await migratorFor(db, engine)).migrateTo(name);
  if (error) throw new Error(`Database migration to '${name}' failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
