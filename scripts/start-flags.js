// The Node flags of `npm start` (read from package.json, so that whoever starts the gateway "as npm start
// does" — the install-time compile-cache warm-up, the benchmark, the tests — cannot drift from it), with
// `--import=./…` made absolute so they work from any directory.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** @param {string} root the checkout whose `npm start` flags are wanted */
export function startScriptFlags(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return manifest.scripts.start.split(/\s+/).filter((part) => part.startsWith('--'))
    .map((flag) => flag.replace(/^--import=(\.\.?\/.*)$/, (_, path) => `--import=${resolve(root, path)}`));
}
