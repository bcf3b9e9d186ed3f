// The Node flags each benchmarked process runs with. The gateway gets exactly the flags of `npm start`
// (read from package.json, so the benchmark measures what users run); the simulators keep a fixed set,
// so the direct baseline does not move when the gateway's flags change.
import { join } from 'node:path';
import { startScriptFlags } from '../scripts/start-flags.js';

export const SIMULATOR_NODE_FLAGS = ['--max-semi-space-size=16'];

/** `root`: the checkout whose `npm start` flags are wanted (this one by default; bench/ab-cpu.ts passes each tree's). */
export function gatewayNodeFlags(root = join(import.meta.dirname, '..')): string[] {
  return startScriptFlags(root);
}
