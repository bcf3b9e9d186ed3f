// The declarative config file: applied idempotently at start, and refused clearly when wrong.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { readEnv } from '../../src/config/env.ts';
import { startGateway } from '../../src/start-gateway.ts';

const mainScript = join(import.meta.dirname, '../../src/main.ts');
const baseConfig = {
  groups: [{ name: 'budget', ratio: 0.5 }],
  channels: [{ name: 'up', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: ['sk-one', 'sk-two'], models: ['m1'], model_mapping: { m1: 'm1-2024' } }],
  models: [{ id: 'm1', owned_by: 'acme', input_per_mtok: 1.25, output_per_mtok: 5 }],
  users: [{ name: 'carol', email: 'carol@example.com', balance: 3.5, password: 'correct horse battery' }],
  keys: [{ name: 'k1', key: testKey('carolk1'), user: 'carol', group: 'budget', quota: 2, expires_at: '2030-01-01T00:00:00Z', ip_allowlist: ['127.0.0.1/32', '::1/128'] }],
};

let gateways: TestGateway[] = [];
afterEach(async () => {
  for (const gateway of gateways) await gateway.dispose();
  gateways = [];
});

async function dumpTables(gateway: TestGateway) {
  const db = gateway.database.db;
  return {
    groups: await db.selectFrom('groups').selectAll().orderBy('id').execute(),
    channels: (await db.selectFrom('channels').selectAll().orderBy('id').execute()),
    models: await db.selectFrom('models').selectAll().orderBy('id').execute(),
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    keys: await db.selectFrom('api_keys').selectAll().orderBy('id').execute(),
    ledger: await db.selectFrom('wallet_ledger').selectAll().orderBy('id').execute(),
  };
}

describe('applying the config file', () => {
  it('stores what the file declares, in integer micro-USD, with secrets hashed or encrypted', async () => {
    const gateway = await startTestGateway(baseConfig);
    gateways.push(gateway);
    const tables = await dumpTables(gateway);
    expect(tables.groups.map((g) => [g.name, g.ratio_ppm])).toEqual([['default', 1_000_000], ['budget', 500_000]]);
    expect(JSON.parse(tables.models[0]!.pricing_json)).toMatchObject({ inputPerMtok: 1_250_000, outputPerMtok: 5_000_000 });
    expect(tables.users[0]!.balance_micros).toBe(3_500_000);
    expect(tables.ledger.map((row) => [row.kind, row.amount_micros])).toEqual([['grant', 3_500_000]]);
    expect(tables.users[0]!.password_hash).toMatch(/^scrypt\$/);
    expect(tables.keys[0]!.quota_micros).toBe(2_000_000);
    expect(tables.keys[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tables.keys[0]!.key_prefix).toBe(`${testKey('carolk1').slice(0, 7)}…${testKey('carolk1').slice(-4)}`);
    expect(JSON.stringify(tables)).not.toContain(testKey('carolk1'));
    expect(tables.channels[0]!.api_keys_encrypted).not.toContain('sk-one');
  });

  it('changes nothing when started twice with the same file', async () => {
    const first = await startTestGateway(baseConfig);
    const before = await dumpTables(first);
    await first.stop();
    const env = readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: first.dir, DATABASE_URL: `sqlite:${join(first.dir, 'gateway.db')}`, LOG_LEVEL: 'silent', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' });
    const second = await startGateway({ env, configFile: first.configFile });
    const after = await dumpTables({ ...second, dir: first.dir } as TestGateway);
    await second.stop();
    await rm(first.dir, { recursive: true, force: true });
    expect(after).toEqual(before);
  });

  it('updates changed entries and keeps entries removed from the file', async () => {
    const first = await startTestGateway(baseConfig);
    await first.stop();
    const changed = { ...baseConfig, groups: [{ name: 'budget', ratio: 0.8 }], keys: [], models: [{ id: 'm1', owned_by: 'acme', input_per_mtok: 2, output_per_mtok: 5 }] };
    await writeFile(first.configFile, stringify(changed));
    const env = readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: first.dir, DATABASE_URL: `sqlite:${join(first.dir, 'gateway.db')}`, LOG_LEVEL: 'silent', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' });
    const second = await startGateway({ env, configFile: first.configFile });
    const tables = await dumpTables({ ...second } as TestGateway);
    await second.stop();
    await rm(first.dir, { recursive: true, force: true });
    expect(tables.groups.find((g) => g.name === 'budget')!.ratio_ppm).toBe(800_000);
    expect(JSON.parse(tables.models[0]!.pricing_json).inputPerMtok).toBe(2_000_000);
    expect(tables.keys).toHaveLength(1);
    // The opening balance is granted once; a restart does not grant it again.
    expect(tables.ledger).toHaveLength(1);
  });
});

describe('npm start with a config file', () => {
  it('stops with a message naming the file, the field path and the problem, and exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-badconfig-'));
    const file = join(dir, 'bad.yaml');
    await writeFile(file, stringify({ channels: [{ name: 'x', type: 'openaii', api_key: 'k', models: ['m'] }], keys: [{ name: 'k', user: 'u', group: 'nope' }] }));
    const { code, stderr } = await run([mainScript, '--config', file], { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'g.db')}`, PORT: '0' });
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stderr).toContain(file);
    expect(stderr).toContain('channels[0].type');
    expect(stderr).not.toContain('    at '); // no stack trace for a user's mistake
  });

  it('reports YAML syntax errors with the file name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-badconfig-'));
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'channels:\n  - name: [unclosed\n');
    const { code, stderr } = await run([mainScript, '--config', file], { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'g.db')}`, PORT: '0' });
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stderr).toContain(`Config file ${file} is invalid`);
  });

  it('generates a key declared without a secret, prints it once on stdout, never into the log stream, and the key works', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-genkey-'));
    const file = join(dir, 'gen.yaml');
    await writeFile(file, stringify({ channels: [{ name: 'up', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-x', models: ['m1'] }], users: [{ name: 'dan' }], keys: [{ name: 'laptop', user: 'dan' }] }));
    const child = spawn(process.execPath, [mainScript, '--config', file], {
      // trace: the most the log stream ever carries.
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'g.db')}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        stderr += `${line}\n`;
        const listening = /gateway listening on (http:\/\/\S+?)"/.exec(line);
        if (listening) resolve(listening[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const key = /\b(sk-[0-9A-Za-z]{48})\b/.exec(stdout)?.[1] ?? '';
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    child.kill('SIGTERM');
    const exitCode = await new Promise((resolve) => child.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['m1']);
    expect(exitCode).toBe(0);
    // Standard output: the key, once; the log stream (standard error, JSON lines): never.
    expect(stdout.split(key).length - 1).toBe(1);
    expect(stderr).toContain('config file applied');
    expect(stderr).not.toContain(key);
    expect(stderr).not.toContain(key.slice(3, 20));
    for (const line of stderr.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });
});

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}
