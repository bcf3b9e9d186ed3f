// The gateway as `npm start` runs it (the start script's Node flags: the compile cache, zod's lazy
// locales, --expose-gc for the idle memory release): it gives start-up's memory back before listening,
// answers bad input with exactly the messages an in-process gateway (no hook, no gc) gives, and still
// serves zod's translations to whoever asks for one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startScriptFlags } from '../../scripts/start-flags.js';

const root = join(import.meta.dirname, '..', '..');
/** The `start` script's Node flags, `--import=./…` made absolute. */
const startFlags = startScriptFlags(root);

const config = {
  channels: [{ name: 'up', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-up', models: ['m1'] }],
  models: [{ id: 'm1', owned_by: 'acme', input_per_mtok: 1, output_per_mtok: 2 }],
  users: [{ name: 'dana', balance: 5 }],
  keys: [{ name: 'k', key: testKey('danak'), user: 'dana' }],
};

let dir: string;
let child: ChildProcess;
let url: string;
let inProcess: TestGateway;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'npm-start-'));
  const configFile = join(dir, 'gateway.json');
  await writeFile(configFile, JSON.stringify(config));
  child = spawn(process.execPath, [...startFlags, join(root, 'src', 'main.ts'), '--config', configFile], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /gateway listening on (http:\/\/\S+?)"/.exec(line);
      if (match) resolveUrl(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before listening`)));
  });
  inProcess = await startTestGateway(config);
}, 60_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await inProcess?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('runs with the flags the idle-memory work relies on', () => {
    expect(startFlags).toContain('--expose-gc');
    expect(startFlags.some((flag) => flag.endsWith('scripts/lazy-zod-locales.js'))).toBe(true);
  });

  it('has given back the second semi-space by the time it listens (one 8 MB semi-space committed, not two)', async () => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const match = /^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(metrics);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  // Each of these answers with a message of zod's English locale ("Invalid option: expected one of …",
  // "Invalid email address"), which the hook must leave as it is.
  it.each([
    ['/v1/embeddings', { model: 'm1', input: 'x', encoding_format: 'hex' }, /Invalid option: expected one of/],
    ['/v1/audio/speech', { model: 'm1', input: 'x', voice: 5 }, /Invalid option: expected one of/],
    ['/api/auth/login', { email: 'not-an-address', password: 'x' }, /Invalid email address/],
  ])('answers bad input to %s exactly as a gateway without the hook does', async (path, body, message) => {
    const send = (base: string) => fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testKey('danak')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const [started, reference] = await Promise.all([send(url), send(inProcess.url)]);
    expect(started.status).toBe(400);
    const answer = await started.json() as { error: { message: string } };
    expect(answer.error.message).toMatch(message);
    expect(answer).toEqual(await reference.json());
  });
});

describe('zod under the lazy-locales hook', () => {
  const script = `
    const { z } = await import('zod');
    const message = (locale) => { if (locale) z.config(locale); return z.string().safeParse(1).error.issues[0].message; };
    const english = message();
    const french = message(z.locales.fr());
    const german = message(z.locales.de());
    console.log(JSON.stringify({ english, french, german, count: Object.keys(z.locales).length }));`;
  const run = (flags: string[]) => {
    const result = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as { english: string; french: string; german: string; count: number };
  };

  it('gives every locale, and the same messages, as zod without it', () => {
    const hook = startFlags.find((flag) => flag.endsWith('scripts/lazy-zod-locales.js'))!;
    const withHook = run([hook]);
    const without = run([]);
    expect(withHook).toEqual(without);
    expect(withHook.french).not.toEqual(withHook.english);
    expect(withHook.count).toBeGreaterThan(40);
  });
});
