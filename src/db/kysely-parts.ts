// The parts of Kysely the gateway uses, without its index. `import … from 'kysely'` loads 262 modules:
// the index re-exports every dialect (MySQL, MSSQL, PostgreSQL's driver, SQLite), the migrator, plugins
// and helpers. Kysely's `exports` map refuses deep specifiers, so the files are imported by URL next to
// the index it resolves to: the same files, hence the same module instances, as the index's own
// re-exports (code or a test that does import 'kysely' gets the very same classes, and `instanceof` holds).
// Type-only imports keep using 'kysely'. The PostgreSQL dialect and the migrator are loaded when needed
// (src/db/database.ts, src/db/migrate.ts).
import type * as KyselyIndex from 'kysely';

const INDEX = import.meta.resolve('kysely');

/** One of Kysely's own files, by its path under dist/esm (e.g. 'migration/migrator.js'). */
export function importKyselyFile<T>(path: string): Promise<T> {
  return import(new URL(path, INDEX).href) as Promise<T>;
}

const [kysely, rawSql, compiledQuery, sqliteDialect, sqliteAdapter, postgresAdapter] = await Promise.all([
  importKyselyFile<Pick<typeof KyselyIndex, 'Kysely'>>('./kysely.js'),
  importKyselyFile<Pick<typeof KyselyIndex, 'sql'>>('./raw-builder/sql.js'),
  importKyselyFile<Pick<typeof KyselyIndex, 'CompiledQuery'>>('./query-compiler/compiled-query.js'),
  importKyselyFile<Pick<typeof KyselyIndex, 'SqliteDialect'>>('./dialect/sqlite/sqlite-dialect.js'),
  importKyselyFile<Pick<typeof KyselyIndex, 'SqliteAdapter'>>('./dialect/sqlite/sqlite-adapter.js'),
  importKyselyFile<Pick<typeof KyselyIndex, 'PostgresAdapter'>>('./dialect/postgres/postgres-adapter.js'),
]);

export const Kysely = kysely.Kysely;
export type Kysely<DB> = KyselyIndex.Kysely<DB>;
export const sql = rawSql.sql;
export const CompiledQuery = compiledQuery.CompiledQuery;
export type CompiledQuery<O = unknown> = KyselyIndex.CompiledQuery<O>;
export const SqliteDialect = sqliteDialect.SqliteDialect;
export const SqliteAdapter = sqliteAdapter.SqliteAdapter;
export const PostgresAdapter = postgresAdapter.PostgresAdapter;
