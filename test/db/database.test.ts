// Opening databases by URL, the SQLite connection settings, migrations and the schema's constraints, on
// both engines.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { engineOf } from '../../src/db/engine.ts';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

describe('openDatabase on SQLite URLs', () => {
  const directory = mkdtempSync(join(tmpdir(), 'gateway-open-test-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('opens sqlite::memory: and runs queries', async () => {
    const database = await openDatabase('sqlite::memory:');
    try {
      expect(database.engine).toBe('sqlite');
      expect(engineOf(database.db)).toBe('sqlite');
      const { rows } = await sql<{ answer: number }>`select 6 * 7 as answer`.execute(database.db);
      expect(rows).toEqual([{ answer: 42 }]);
    } finally {
      await database.close();
    }
  });

  it('creates missing parent directories and sets WAL, foreign keys, busy timeout and synchronous', async () => {
    const file = join(directory, 'nested', 'deeper', 'gateway.db');
    const database = await openDatabase(`sqlite:${file}`);
    try {
      expect(existsSync(file)).toBe(true);
      const pragma = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(database.db)).rows[0]!)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
      expect(await pragma('synchronous')).toBe(1); // NORMAL
    } finally {
      await database.close();
    }
  });

  it('accepts sqlite:///absolute paths', async () => {
    const file = join(directory, 'triple-slash.db');
    const database = await openDatabase(`sqlite://${file}`);
    await database.close();
    expect(existsSync(file)).toBe(true);
  });

  it('reports update counts and insert ids through the driver', async () => {
    const database = await openDatabase('sqlite::memory:');
    try {
      await sql`create table t (id integer primary key autoincrement, v text)`.execute(database.db);
      const inserted = await sql`insert into t (v) values ('a'), ('b')`.execute(database.db);
      expect(inserted.numAffectedRows).toBe(2n);
      expect(inserted.insertId).toBe(2n);
      const rows: unknown[] = [];
      for await (const row of database.db.selectFrom('t' as never).selectAll().stream()) rows.push(row);
      expect(rows).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]);
    } finally {
      await database.close();
    }
  });

  it('refuses unknown schemes, naming the scheme but not the credentials', async () => {
    await expect(openDatabase('mysql://admin:hunter2@db.example.com/gateway')).rejects.toThrow(/'mysql:'/);
    await expect(openDatabase('mysql://admin:hunter2@db.example.com/gateway')).rejects.not.toThrow(/hunter2|admin/);
    await expect(openDatabase('admin:hunter2@localhost')).rejects.not.toThrow(/hunter2/);
    await expect(openDatabase('sqlite:')).rejects.toThrow(/names no file/);
  });
});

describe.each(withTestDatabases())('schema on %s', (target) => {
  const database = useTestDatabase(target);

  it('runs on the expected engine', () => {
    expect(database().engine).toBe(target.engine);
    expect(engineOf(database().db)).toBe(target.engine);
  });

  it('has applied every migration, and running them again is a no-op', async () => {
    const { db } = database();
    const before = await sql<{ name: string }>`select name from gateway_migrations order by name`.execute(db);
    expect(before.rows.map((row) => row.name)).toEqual([...MIGRATION_NAMES]);
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await migrateToLatest(db, target.engine)).toEqual([]);
    const after = await sql<{ name: string }>`select name from gateway_migrations order by name`.execute(db);
    expect(after.rows).toEqual(before.rows);
    expect(await db.selectFrom('groups').select('name').execute()).toEqual([{ name: 'default' }]);
  });

  it('seeds the default group at ratio 1.0', async () => {
    const group = await database().db.selectFrom('groups').selectAll().where('name', '=', 'default').executeTakeFirstOrThrow();
    expect(group.ratio_ppm).toBe(1_000_000);
    expect(typeof group.id).toBe('number');
    expect(typeof group.created_at).toBe('number');
  });

  it('returns BIGINT columns as exact JS numbers', async () => {
    const { db } = database();
    const big = 2 ** 53 - 1;
    const user = await db.insertInto('users').values({
      name: 'bigint', email: null, password_hash: null, role: 'user', status: 'active', email_verified_at: null,
      totp_secret_encrypted: null, balance_micros: big, rpm_limit: null, tpm_limit: null, settings_json: '{}',
      created_at: 1_700_000_000_123, updated_at: 1_700_000_000_123,
    }).returningAll().executeTakeFirstOrThrow();
    expect(typeof user.id).toBe('number');
    const read = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(read.balance_micros).toBe(big);
    expect(read.created_at).toBe(1_700_000_000_123);
    const { rows } = await sql<{ n: number }>`select count(*) as n from users`.execute(db);
    expect(rows[0]!.n).toBe(1);
    await db.deleteFrom('users').where('id', '=', user.id).execute();
  });

  it('enforces the unique constraints', async () => {
    const { db } = database();
    const now = Date.now();
    const user = (name: string, email: string | null) => ({
      name, email, password_hash: null, role: 'user' as const, status: 'active' as const, email_verified_at: null,
      totp_secret_encrypted: null, balance_micros: 0, rpm_limit: null, tpm_limit: null, settings_json: '{}', created_at: now, updated_at: now,
    });
    const ana = await db.insertInto('users').values(user('ana', 'ana@example.com')).returning('id').executeTakeFirstOrThrow();
    await expect(db.insertInto('users').values(user('ana', null)).execute()).rejects.toThrow(/unique|duplicate/i);
    await expect(db.insertInto('users').values(user('ana2', 'ana@example.com')).execute()).rejects.toThrow(/unique|duplicate/i);
    // Several users without an e-mail are fine: NULLs are distinct.
    await db.insertInto('users').values([user('no-mail-1', null), user('no-mail-2', null)]).execute();

    await expect(db.insertInto('groups').values({ name: 'default', ratio_ppm: 1, description: null, rpm_limit: null, tpm_limit: null, created_at: now, updated_at: now }).execute())
      .rejects.toThrow(/unique|duplicate/i);

    const channel = { name: 'c', type: 'openai', base_url: '', api_keys_encrypted: 'x', models_json: '[]', model_mapping_json: '{}', groups_json: '[]', priority: 0, weight: 1, status: 'enabled' as const, status_reason: null, settings_json: '{}', created_at: now, updated_at: now };
    await db.insertInto('channels').values(channel).execute();
    await expect(db.insertInto('channels').values(channel).execute()).rejects.toThrow(/unique|duplicate/i);

    const key = (name: string, hash: string) => ({ user_id: ana.id, name, key_hash: hash, key_prefix: 'sk-…', group_name: 'default', models_json: null, quota_micros: null, used_micros: 0, expires_at: null, ip_allowlist_json: null, status: 'active' as const, rpm_limit: null, tpm_limit: null, created_at: now, updated_at: now, last_used_at: null });
    await db.insertInto('api_keys').values(key('k1', 'h1')).execute();
    await expect(db.insertInto('api_keys').values(key('k2', 'h1')).execute()).rejects.toThrow(/unique|duplicate/i);
    await expect(db.insertInto('api_keys').values(key('k1', 'h2')).execute()).rejects.toThrow(/unique|duplicate/i);

    const ledger = (reference: string | null, kind: 'charge' | 'topup' = 'charge') => ({ user_id: ana.id, created_at: now, kind, amount_micros: -1, reference, note: null });
    await db.insertInto('wallet_ledger').values(ledger('req-1')).execute();
    await expect(db.insertInto('wallet_ledger').values(ledger('req-1')).execute()).rejects.toThrow(/unique|duplicate/i);
    await db.insertInto('wallet_ledger').values([ledger('req-1', 'topup'), ledger(null), ledger(null)]).execute();

    const payment = { user_id: ana.id, provider: 'stripe', provider_session_id: 'cs_1', amount_micros: 5, status: 'pending' as const, created_at: now, completed_at: null };
    await db.insertInto('payments').values(payment).execute();
    await expect(db.insertInto('payments').values(payment).execute()).rejects.toThrow(/unique|duplicate/i);

    const session = { id: 'sid', token_hash: 'th', user_id: ana.id, stage: 'active' as const, created_at: now, last_seen_at: now, expires_at: now + 1, ip: null, user_agent: null };
    await db.insertInto('sessions').values(session).execute();
    await expect(db.insertInto('sessions').values(session).execute()).rejects.toThrow(/unique|duplicate|primary/i);

    const stat = { bucket: 'day', bucket_start: 0, user_id: 1, key_id: 1, model: 'm', requests: 1, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 };
    await db.insertInto('usage_stats').values(stat).execute();
    await expect(db.insertInto('usage_stats').values(stat).execute()).rejects.toThrow(/unique|duplicate|primary/i);
  });

  it('enforces foreign keys (SQLite included, via PRAGMA foreign_keys)', async () => {
    const now = Date.now();
    await expect(database().db.insertInto('wallet_ledger').values({ user_id: 999_999, created_at: now, kind: 'grant', amount_micros: 1, reference: null, note: null }).execute())
      .rejects.toThrow(/foreign key/i);
  });

  it('has the indexes the hot queries rely on', async () => {
    const { db } = database();
    const names = target.engine === 'postgres'
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db)).rows;
    const all = names.map((row) => row.name);
    for (const index of ['usage_logs_created_at', 'usage_logs_user_time', 'usage_logs_key_time', 'wallet_ledger_user', 'wallet_ledger_kind_reference']) {
      expect(all).toContain(index);
    }
  });
});
