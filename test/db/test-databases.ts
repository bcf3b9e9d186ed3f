// Throwaway databases for storage tests on both engines: SQLite in a temp directory, PostgreSQL as a fresh
// database with a random name on TEST_POSTGRES_URL (default postgres@127.0.0.1:5432, trust auth), dropped
// WITH (FORCE) afterwards. TEST_DATABASES=sqlite (or postgres) limits the engines, e.g. on a laptop
// without PostgreSQL; by default both run and a missing PostgreSQL fails the tests rather than skipping.
//
//   describe.each(withTestDatabases())('repositories on $engine', (target) => {
//     const database = useTestDatabase(target);          // beforeAll: create + open + migrate; afterAll: close + drop
//     it('…', async () => { const { db } = database(); … });
//   });
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import type { DatabaseEngine } from '../../src/db/engine.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface TestDatabase {
  engine: DatabaseEngine;
  /** A DATABASE_URL for openDatabase(); usable after create(). */
  url: string;
  /** Creates the empty database (PostgreSQL: CREATE DATABASE; SQLite: nothing, the directory and file appear on open). */
  create(): Promise<void>;
  /** Removes it (PostgreSQL: DROP DATABASE … WITH (FORCE); SQLite: the temp directory). Safe to call twice. */
  drop(): Promise<void>;
  /** For describe.each titles. */
  toString(): string;
}

function testDatabaseEngines(): DatabaseEngine[] {
  const wanted = process.env.TEST_DATABASES?.split(',').map((name) => name.trim()).filter(Boolean);
  const all: DatabaseEngine[] = ['sqlite', 'postgres'];
  return wanted ? all.filter((engine) => wanted.includes(engine)) : all;
}

/** One not-yet-created database per engine; names are chosen now so describe.each can list them. */
export function withTestDatabases(): TestDatabase[] {
  return testDatabaseEngines().map(testDatabase);
}

function testDatabase(engine: DatabaseEngine): TestDatabase {
  return engine === 'sqlite' ? sqliteTestDatabase() : postgresTestDatabase();
}


/**
 * Registers beforeAll/afterAll in the current describe block: creates the database, opens it, migrates it
 * (unless `migrate: false`), and closes and drops it at the end. Returns a getter for the open Database.
 */
export function useTestDatabase(target: TestDatabase, options: { migrate?: boolean } = {}): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    await target.create();
    database = await openDatabase(target.url);
    if (options.migrate !== false) await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await target.drop();
  });
  return () => {
    if (!database) throw new Error(`The ${target.engine} test database is not open (used outside a test?)`);
    return database;
  };
}

function sqliteTestDatabase(): TestDatabase {
  // Only a name for now: the driver creates the directory on open, so a filtered-out describe leaves nothing.
  const directory = join(tmpdir(), `gateway-db-test-${randomBytes(6).toString('hex')}`);
  return {
    engine: 'sqlite',
    url: `sqlite:${join(directory, 'gateway.db')}`,
    async create() {},
    async drop() {
      rmSync(directory, { recursive: true, force: true });
    },
    toString: () => 'sqlite',
  };
}

function postgresTestDatabase(): TestDatabase {
  // Lower-case letters, digits and underscores only: safe to splice into CREATE/DROP DATABASE unquoted.
  const name = `gateway_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    engine: 'postgres',
    url: url.toString(),
    create: () => adminQuery(`CREATE DATABASE ${name}`),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    toString: () => 'postgres',
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
