// Gives a worker thread the young generation its resourceLimits ask for. `npm start` sets V8's
// --max-semi-space-size and --min-semi-space-size (8 MB semi-spaces, for the request loop's p99); V8 flags
// are process-wide and win over a Worker's `resourceLimits.maxYoungGenerationSizeMb`, so the metering
// worker got the gateway's 16 MB young generation too (measured: new space 16 MB committed, 26 MB heap in
// all under load, with maxYoungGenerationSizeMb 4). V8 reads these flags when an isolate is created: they
// are cleared (0: the isolate's own limits rule) while the worker's isolate starts, and put back as soon as
// it runs. The gateway's own heap was configured at start-up and does not read them again.
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

const SEMI_SPACE_FLAG = /^--(max|min)[-_]semi[-_]space[-_]size=(\d+)$/;

/** The semi-space flags this process was started with (`npm start`'s), as `--flag=value`. */
function semiSpaceFlags(): string[] {
  const fromOptions = (process.env.NODE_OPTIONS ?? '').split(/\s+/);
  return [...fromOptions, ...process.execArgv].filter((flag) => SEMI_SPACE_FLAG.test(flag));
}

export function withOwnYoungGeneration(create: () => Worker): Worker {
  const flags = semiSpaceFlags();
  if (flags.length === 0) return create();
  for (const flag of flags) setFlagsFromString(flag.replace(/=\d+$/, '=0'));
  let worker: Worker;
  try {
    worker = create();
  } catch (error) {
    restore(flags);
    throw error;
  }
  let restored = false;
  const restoreOnce = () => {
    if (restored) return;
    restored = true;
    restore(flags);
  };
  // 'online': the worker's isolate exists and runs; 'error'/'exit': it never will.
  worker.once('online', restoreOnce);
  worker.once('error', restoreOnce);
  worker.once('exit', restoreOnce);
  return worker;
}

function restore(flags: string[]): void {
  for (const flag of flags) setFlagsFromString(flag);
}
