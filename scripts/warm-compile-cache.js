// Run by `npm ci` / `npm install` (the prepare script): fills Node's compile cache, which `npm start` turns on
// (scripts/compile-cache.js), for every module the gateway loads to start, for its SQLite metering worker's
// and for those it imports on first use (scripts/lazy-ts-modules.js). Without it the first start after an install strips the TypeScript sources itself and so loads
// Node's type stripper, a WASM module that stays resident in each thread that loaded it: ~121 MB idle on a
// first start against 99 MB on every later one (issue 16), and each metering worker started during that
// first run loads it again. Best effort: whatever happens here, the install goes on (exit code 0), and a
// cache this could not fill is filled by the first start, as before.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lazyTsModules } from './lazy-ts-modules.js';
import { startScriptFlags } from './start-flags.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const LIMIT_MS = 60_000;
let scratch;

/**
 * Starts the gateway as `npm start` would, on 127.0.0.1 and a port of the system's choosing, with an empty
 * data directory, and stops it (SIGTERM) as soon as it listens: everything start-up loads, the database
 * migrations included, is then compiled, and the cache is written as it exits.
 */
function startAndStop(flags) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...flags, join(root, 'src', 'main.ts')], {
      cwd: root,
      env: { ...ownEnvironment(), PORT: '0', HOST: '127.0.0.1', DATA_DIR: scratch, DATABASE_URL: `sqlite:${join(scratch, 'gateway.db')}`, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const giveUp = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (line.includes('gateway listening on')) child.kill('SIGTERM');
    });
    child.once('error', () => done());
    child.once('exit', () => {
      clearTimeout(giveUp);
      done();
    });
  });
}

/**
 * Only what locates programs and the cache: none of the installing user's gateway settings (a DATABASE_URL
 * to a real database, REDIS_URL, SMTP_URL, a config file) may reach this throwaway start.
 */
function ownEnvironment() {
  const kept = {};
  for (const name of ['PATH', 'Path', 'HOME', 'USERPROFILE', 'SystemRoot', 'TMPDIR', 'TMP', 'TEMP', 'NODE_COMPILE_CACHE']) {
    if (process.env[name] !== undefined) kept[name] = process.env[name];
  }
  return kept;
}

try {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) throw new Error('the compile cache is turned off');
  // Exactly the start script's Node flags: V8 keys its code cache by its flags, so a cache filled under
  // other flags (the semi-space sizes, --expose-gc) would not be used by `npm start`.
  const flags = startScriptFlags(root);
  scratch = mkdtempSync(join(tmpdir(), 'gateway-warm-'));
  await startAndStop(flags);
  // The metering worker (started on the first call), started the way the gateway starts it and asked to
  // close once it has loaded.
  spawnSync(process.execPath, [...flags, join(root, 'scripts', 'warm-metering-worker.ts'), `sqlite:${join(scratch, 'warm-up.db')}`], { cwd: root, env: ownEnvironment(), stdio: 'ignore', timeout: LIMIT_MS });
  // What the gateway imports only on first use (the realtime relay), compiled without being used.
  const imports = lazyTsModules(root).map((file) => `try { await import(${JSON.stringify(pathToFileURL(file).href)}); } catch {}`).join('\n');
  spawnSync(process.execPath, [...flags, '--input-type=module', '-e', imports], { cwd: root, env: ownEnvironment(), stdio: 'ignore', timeout: LIMIT_MS });
} catch {
  // Nothing to do: the first start fills the cache instead.
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
