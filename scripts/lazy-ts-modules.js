// The TypeScript modules src/ imports on first use (`import('./….ts')`: the database migrations at start, the
// realtime relay on the first realtime call), as absolute paths. scripts/warm-compile-cache.js compiles them
// at install, so that a first use does not load Node's type stripper either; its test checks the same list.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const DYNAMIC_TS_IMPORT = /import\(\s*'(\.{1,2}\/[^']+\.ts)'\s*\)/g;

/** @param {string} root the project's directory */
export function lazyTsModules(root) {
  const found = new Set();
  for (const name of readdirSync(join(root, 'src'), { recursive: true })) {
    if (typeof name !== 'string' || !name.endsWith('.ts')) continue;
    const file = join(root, 'src', name);
    for (const match of readFileSync(file, 'utf8').matchAll(DYNAMIC_TS_IMPORT)) found.add(resolve(dirname(file), match[1]));
  }
  return [...found].sort();
}
