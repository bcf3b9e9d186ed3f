// The Node flags each benchmarked process runs with. The gateway gets exactly the flags of `npm start`
// (read from package.json, so the benchmark measures what users run); the simulators keep a fixed set,
// so the direct baseline does not move when the gateway's flags change.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SIMULATOR_NODE_FLAGS = ['--max-semi-space-size=16'];

/** `root`: the checkout whose `npm start` flags are wanted (this one by default; bench/ab-cpu.ts passes each tree's). */
export function gatewayNodeFlags(root = join(import.meta.dirname, '..')): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  // `--import=./…` is relative to the repository (npm runs scripts there); made absolute for any cwd.
  return manifest.scripts.start.split(/\s+/).filter((part) => part.startsWith('--'))
    .map((flag) => flag.replace(/^--import=(\.\.?\/.*)$/, (_, path: string) => `--import=${resolve(root, path)}`));
}
