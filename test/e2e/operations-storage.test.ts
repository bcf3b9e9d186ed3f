// Where the data lives and whom it trusts: DATA_DIR moves the database, the database refuses a different
// GATEWAY_SECRET before anything is written, one unreadable credential disables only its channel, and a
// missing PostgreSQL database is created when the role may (and named clearly when it may not).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey } from '../helpers/test-gateway.ts';
import { POSTGRES_ADMIN_URL } from '../helpers/test-postgres.ts';
import { readEnv } from '../../src/config/env.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { StartupError } from '../../src/config/startup-error.ts';
import { openDatabase } from '../../src/db/database.ts';

const mainScript = join(import.meta.dirname, '../../src/main.ts');
const UPSTREAM_KEY = 'sk-upstream-operations';
const SECRET_A = 'secret-a-secret-a-secret-a-secret-a';
const SECRET_B = 'secret-b-secret-b-secret-b-secret-b';
const KEY = testKey('opsuser');
let upstream: OpenAISimulator;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await upstream?.close();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-ops-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function config(channelNames = ['up']) {
  return {
    channels: channelNames.map((name) => ({ name, type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: [`model-${name}`] })),
    models: channelNames.map((name) => ({ id: `model-${name}`, free: true })),
    users: [{ name: 'olga', role: 'admin', balance: 1 }],
    keys: [{ name: 'k', key: KEY, user: 'olga' }],
  };
}

async function start(dir: string, env: Record<string, string>, configObject: object = config()): Promise<RunningGateway> {
  const configFile = join(dir, `gateway-${randomBytes(3).toString('hex')}.yaml`);
  await writeFile(configFile, stringify(configObject));
  return startGateway({ env: readEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FLUSH_INTERVAL_MS: '50', ...env }), configFile });
}

describe('DATA_DIR', () => {
  it('moves the default database, so two instances with different DATA_DIRs never share one', async () => {
    expect(readEnv({ DATA_DIR: '/srv/gw' }).DATABASE_URL).toBe('sqlite:/srv/gw/gateway.db');
    expect(readEnv({ DATA_DIR: '/srv/gw', DATABASE_URL: 'sqlite::memory:' }).DATABASE_URL).toBe('sqlite::memory:');
    const [first, second] = [await tempDir(), await tempDir()];
    const a = await start(first, { DATA_DIR: first }, config(['first']));
    const b = await start(second, { DATA_DIR: second }, config(['second']));
    try {
      expect(existsSync(join(first, 'gateway.db'))).toBe(true);
      expect(existsSync(join(second, 'gateway.db'))).toBe(true);
      expect((await a.database.db.selectFrom('channels').select('name').execute()).map((row) => row.name)).toEqual(['first']);
      expect((await b.database.db.selectFrom('channels').select('name').execute()).map((row) => row.name)).toEqual(['second']);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('the database is sealed with its GATEWAY_SECRET', () => {
  it('refuses another secret before writing anything, with one sentence and exit code 1', async () => {
    const dir = await tempDir();
    const first = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_A });
    await first.stop();
    const before = await snapshot(join(dir, 'gateway.db'));

    const refused = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_B }, config(['up', 'intruder'])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toMatch(/^The database at .*gateway\.db was sealed with a different GATEWAY_SECRET/);
    expect((refused as Error).message).not.toContain(SECRET_A);
    expect((refused as Error).message).not.toContain(SECRET_B);
    // Nothing written: no channel of the intruder's config, no credential under its secret.
    expect(await snapshot(join(dir, 'gateway.db'))).toEqual(before);

    // The same through `npm start`: exit 1, one line on stderr, no stack trace.
    await writeFile(join(dir, 'other.yaml'), stringify(config(['up', 'intruder'])));
    const { code, stderr } = await run([mainScript, '--config', join(dir, 'other.yaml')], { DATA_DIR: dir, GATEWAY_SECRET: SECRET_B, PORT: '0', HOST: '127.0.0.1' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('was sealed with a different GATEWAY_SECRET');
    expect(await snapshot(join(dir, 'gateway.db'))).toEqual(before);

    // The right secret still opens it.
    const again = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_A });
    await again.stop();
  });

  it('seals a database from before sealing existed only if its credentials decrypt with the secret', async () => {
    const dir = await tempDir();
    const first = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_A });
    await first.database.db.deleteFrom('settings').where('key', '=', 'gateway_secret_fingerprint').execute();
    await first.stop();
    await expect(start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_B })).rejects.toThrow(/sealed with a different GATEWAY_SECRET/);
    const adopted = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_A });
    const seal = await adopted.database.db.selectFrom('settings').select('value_json').where('key', '=', 'gateway_secret_fingerprint').executeTakeFirstOrThrow();
    await adopted.stop();
    expect(seal.value_json).toMatch(/^\{"hmac_sha256":"[0-9a-f]{64}"\}$/);
    expect(seal.value_json).not.toContain(SECRET_A);
  });
});

describe('an undecryptable channel credential', () => {
  it('disables that channel with a reason shown to admins; the gateway, its reloads and restarts go on', async () => {
    const dir = await tempDir();
    const gateway = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_A }, config(['good', 'broken']));
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    // A credential sealed under some other secret (what a second instance with its own secret once wrote).
    await gateway.database.db.updateTable('channels').set({ api_keys_encrypted: 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA' }).where('name', '=', 'broken').execute();
    await gateway.state.reload();
    await expect(client.chat.completions.create({ model: 'model-good', messages: [{ role: 'user', content: 'hi' }] })).resolves.toBeDefined();
    await expect(client.chat.completions.create({ model: 'model-broken', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 503, code: 'model_unavailable' });

    const listed = await waitFor(async () => {
      const response = await fetch(`${gateway.url}/api/admin/channels`, { headers: { authorization: `Bearer ${KEY}` } });
      const channels = ((await response.json()) as { data: { name: string; status: string; status_reason: string | null }[] }).data;
      const broken = channels.find((channel) => channel.name === 'broken')!;
      return broken.status === 'auto_disabled' ? channels : null;
    });
    expect(listed.find((channel) => channel.name === 'broken')!.status_reason).toMatch(/cannot be decrypted with this gateway's GATEWAY_SECRET/);
    expect(listed.find((channel) => channel.name === 'good')!.status).toBe('enabled');
    await gateway.stop();

    // A restart with the same file: the file's key is sealed again under this secret and the channel is back.
    const restarted = await start(dir, { DATA_DIR: dir, GATEWAY_SECRET: SECRET_A }, config(['good', 'broken']));
    const again = new OpenAI({ baseURL: `${restarted.url}/v1`, apiKey: KEY, maxRetries: 0 });
    await expect(again.chat.completions.create({ model: 'model-broken', messages: [{ role: 'user', content: 'hi' }] })).resolves.toBeDefined();
    await restarted.stop();
  });
});

describe('PostgreSQL database creation', () => {
  it('creates a database that does not exist when the role may', async () => {
    const name = `gateway_test_new_${randomBytes(5).toString('hex')}`;
    cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    const dir = await tempDir();
    const gateway = await start(dir, { DATA_DIR: dir, DATABASE_URL: url.toString(), GATEWAY_SECRET: SECRET_A });
    try {
      expect(gateway.database.engine).toBe('postgres');
      expect((await gateway.database.db.selectFrom('channels').select('name').execute()).map((row) => row.name)).toEqual(['up']);
    } finally {
      await gateway.stop();
    }
  });

  it('stops with a clear sentence when the role may not create it', async () => {
    const role = `gateway_nocreate_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
    cleanups.push(() => adminQuery(`DROP ROLE IF EXISTS ${role}`));
    const url = new URL(POSTGRES_ADMIN_URL);
    url.username = role;
    url.pathname = `/gateway_test_missing_${randomBytes(5).toString('hex')}`;
    const dir = await tempDir();
    const error = await start(dir, { DATA_DIR: dir, DATABASE_URL: url.toString(), GATEWAY_SECRET: SECRET_A }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(new RegExp(`^The PostgreSQL database 'gateway_test_missing_[0-9a-f]+' on .* does not exist and could not be created \\(role '${role}' may not create databases\\): create it .* or grant the role CREATEDB\\.$`));
  });
});

/** Every row of every table, to prove a refused start wrote nothing. */
async function snapshot(file: string): Promise<unknown> {
  const database = await openDatabase(`sqlite:${file}`);
  try {
    const tables = ['settings', 'channels', 'users', 'api_keys', 'models', 'groups', 'wallet_ledger', 'gateway_migrations'] as const;
    const result: Record<string, unknown> = {};
    for (const table of tables) result[table] = await database.db.selectFrom(table as 'settings').selectAll().execute();
    return result;
  } finally {
    await database.close();
  }
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

async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}
