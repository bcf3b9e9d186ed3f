// `npm start` preloads scripts/malloc-mmap-threshold.js first: on Linux with glibc the process starts again
// in place with GLIBC_TUNABLES glibc.malloc.mmap_threshold=32768 (issue 16, peak memory). These check that
// the gateway so started is the process its parent spawned (same PID, its output still reaching the parent)
// and serves, that the tunable is in its environment, and that the script leaves alone an operator's own
// threshold, other tunables, and a forked child's IPC channel.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const script = resolve(root, 'scripts', 'malloc-mmap-threshold.js');
const startFlags = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/).filter((part) => part.startsWith('--'))
  .map((flag) => flag.replace(/^--import=(\.\.?\/.*)$/, (_, path: string) => `--import=${resolve(root, path)}`));
const glibc = process.platform === 'linux' && /\/libc\.so\.6$/m.test(readFileSync('/proc/self/maps', 'utf8'));
const THRESHOLD = 'glibc.malloc.mmap_threshold=32768';

/** The environment of a running process, as the kernel holds it (what execve gave it). */
const environmentOf = (pid: number): string[] => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/** GLIBC_TUNABLES as seen by `node [flags] -e` started with `env`. */
function tunablesSeen(flags: string[], env: Record<string, string>): string {
  const { GLIBC_TUNABLES: _inherited, ...base } = process.env;
  const result = spawnSync(process.execPath, [...flags, '-e', 'process.stdout.write(process.env.GLIBC_TUNABLES ?? "(none)")'], { env: { ...base, ...env }, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe.runIf(glibc)('npm start on Linux with glibc', () => {
  let dir: string;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'npm-start-malloc-'));
    const configFile = join(dir, 'gateway.json');
    await writeFile(configFile, JSON.stringify({ channels: [{ name: 'up', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-up', models: ['m1'] }] }));
    const { GLIBC_TUNABLES: _inherited, ...env } = process.env;
    child = spawn(process.execPath, [...startFlags, join(root, 'src', 'main.ts'), '--config', configFile], {
      cwd: root,
      env: { ...env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolveUrl, reject) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        const match = /gateway listening on (http:\/\/\S+?)"/.exec(line);
        if (match) resolveUrl(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before listening`)));
    });
  }, 60_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  it('preloads the script before anything else', () => {
    expect(startFlags[0]).toBe(`--import=${script}`);
  });

  it('runs the gateway in the spawned process itself, with the threshold in its environment, and serves', async () => {
    expect(environmentOf(child.pid!)).toContain(`GLIBC_TUNABLES=${THRESHOLD}`);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('stops when asked, as the process its parent knows', async () => {
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe.runIf(glibc)('scripts/malloc-mmap-threshold.js', () => {
  const preload = [`--import=${script}`];

  it('adds the threshold to the tunables an operator set', () => {
    expect(tunablesSeen(preload, {})).toBe(THRESHOLD);
    expect(tunablesSeen(preload, { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toBe(`glibc.malloc.arena_max=2:${THRESHOLD}`);
  });

  it('keeps a threshold the operator chose', () => {
    expect(tunablesSeen(preload, { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072' })).toBe('glibc.malloc.mmap_threshold=131072');
  });

  it('leaves a forked child (IPC channel to its parent) as it is', async () => {
    const { GLIBC_TUNABLES: _inherited, ...env } = process.env;
    const dir = await mkdtemp(join(tmpdir(), 'malloc-fork-'));
    const module = join(dir, 'child.mjs');
    await writeFile(module, 'process.send(process.env.GLIBC_TUNABLES ?? "(none)"); process.disconnect();');
    try {
      const forked = fork(module, [], { execArgv: preload, env });
      const message = await new Promise<unknown>((resolveMessage, reject) => {
        forked.once('message', resolveMessage);
        forked.once('exit', (code) => reject(new Error(`exited (${code}) without a message`)));
      });
      expect(message).toBe('(none)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
