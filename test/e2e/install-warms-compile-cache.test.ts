// `npm ci` fills Node's compile cache (the prepare script runs scripts/warm-compile-cache.js), so that the
// first `npm start` after an install, and the metering worker it starts, do not load Node's TypeScript
// stripper (a WASM module that stays resident in each thread that loaded it). Checked the way a user runs
// it: the warm-up script, then the gateway with the start script's flags, each with a compile cache
// directory of the test's own; a gateway started on an empty cache directory is the control.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { lazyTsModules } from '../../scripts/lazy-ts-modules.js';
import { startScriptFlags } from '../../scripts/start-flags.js';
import { testKey } from '../helpers/test-gateway.ts';

const root = join(import.meta.dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const startFlags = startScriptFlags(root);
const KEY = testKey('warmcache');
const PROBE = join(root, 'test', 'helpers', 'stripper-probe.js');

let dir: string;
let upstream: OpenAISimulator;

let warmed: string;
let warmUpStatus: number | null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'warm-cache-'));
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  // What `npm ci` runs (the prepare script), into a compile cache directory of this test's own.
  warmed = join(dir, 'warmed-cache');
  warmUpStatus = spawnSync(process.execPath, [join(root, 'scripts', 'warm-compile-cache.js')], { cwd: root, env: { ...process.env, NODE_COMPILE_CACHE: warmed }, encoding: 'utf8', timeout: 120_000 }).status;
}, 180_000);

afterAll(async () => {
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Starts the gateway as `npm start` does with this compile cache, makes one call (so that the metering
 * worker starts and writes it), and returns which threads loaded the type stripper.
 */
/**
 * `expected`: how many threads the caller expects to load it; their lines are waited for (a loaded machine
 * starts the worker late), up to a bound, so a missing line is a real absence rather than a slow start.
 */
async function threadsThatLoadedTheStripper(cacheDir: string, name: string, expected = 0): Promise<string[]> {
  const dataDir = join(dir, `${name}-data`);
  const report = join(dir, `${name}-stripper.txt`);
  const configFile = join(dir, `${name}.json`);
  await writeFile(configFile, JSON.stringify({
    channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'warm', balance: 5 }],
    keys: [{ name: 'k', key: KEY, user: 'warm' }],
  }));
  const child = spawn(process.execPath, [...startFlags, `--import=${PROBE}`, join(root, 'src', 'main.ts'), '--config', configFile], {
    cwd: root,
    env: { ...process.env, NODE_COMPILE_CACHE: cacheDir, STRIPPER_PROBE_FILE: report, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', GATEWAY_SECRET: 'test-secret-test-secret-test-secret', FLUSH_INTERVAL_MS: '50' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        const match = /gateway listening on (http:\/\/\S+?)"/.exec(line);
        if (match) resolveUrl(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before listening`)));
    });
    const answer = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(answer.status).toBe(200);
    await answer.text();
    // The call's usage reaches the metering worker within a flush or two; then the worker has loaded.
    for (let tries = 0; tries < 400; tries += 1) {
      const lines = (await readFile(report, 'utf8').catch(() => '')).split('\n');
      if (lines.includes('worker-started')) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    const loaded = async () => (await readFile(report, 'utf8')).split('\n').filter((line) => line.endsWith('loaded the stripper'));
    await new Promise((resolveWait) => setTimeout(resolveWait, 300));
    for (let tries = 0; tries < 100 && (await loaded()).length < expected; tries += 1) await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    return loaded();
  } finally {
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the compile cache filled at install', () => {
  it('is used by the first start: neither the gateway nor its metering worker loads the type stripper', async () => {
    expect(warmUpStatus).toBe(0);
    expect(await threadsThatLoadedTheStripper(warmed, 'warmed')).toEqual([]);
  }, 180_000);

  it('covers what the gateway imports on first use (the realtime relay, the migrations), which start-up alone does not', () => {
    const lazy = lazyTsModules(root);
    expect(lazy.some((file) => file.endsWith(join('realtime', 'realtime-relay.ts')))).toBe(true);
    const imports = lazy.map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`).join('\n');
    const check = `await import(${JSON.stringify(pathToFileURL(join(root, 'src', 'start-gateway.ts')).href)});\n${imports}\nprocess.stdout.write(String(process.moduleLoadList.some((name) => name.includes('amaro'))));`;
    const run = (cacheDir: string) => spawnSync(process.execPath, [...startFlags, '--input-type=module', '-e', check], { cwd: root, env: { ...process.env, NODE_COMPILE_CACHE: cacheDir }, encoding: 'utf8', timeout: 60_000 });
    expect(run(warmed).stdout).toBe('false');
    // The control: an empty cache makes the same imports load it.
    expect(run(join(dir, 'empty-cache-lazy')).stdout).toBe('true');
  }, 120_000);

  it('is what makes the difference: on an empty cache both threads load it (the control)', async () => {
    expect((await threadsThatLoadedTheStripper(join(dir, 'empty-cache'), 'empty', 2)).sort()).toEqual(['main loaded the stripper', 'worker loaded the stripper']);
  }, 120_000);

  it('runs on every install (the prepare script), after the dashboard build', () => {
    expect(packageJson.scripts.prepare).toMatch(/build:web.*node scripts\/warm-compile-cache\.js/);
  });
});
