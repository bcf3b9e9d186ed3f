// Gives the JavaScript heap's spare memory back to the system when the gateway has nothing to do
// (issue 16: idle RSS). After start-up, and after any burst of work, V8 keeps resident what that work
// needed: both semi-spaces of the young generation (8 MB each under `npm start`'s flags), old-space
// pages now mostly free, pooled pages, and the bytecode of code that ran once (module bodies, start-up).
// V8's own memory reducer would release them once the allocation rate drops, but it never judges an
// idle Node server idle (`--trace-memory-reducer` prints "high alloc, foreground" every 8 s with
// nothing running). A memory-reducing collection (`gc({ flavor: 'last-resort' })`, what V8 runs on a
// low-memory notification) compacts the old space, uncommits the free semi-space and returns pooled
// pages; each one also ages unused bytecode one step, so a few in a row flush the start-up code.
// The semi-spaces keep their size: the next scavenge under load commits the free one again.
//
// It needs `--expose-gc` (the `start` script passes it). Without it (tests, other launchers) it does
// nothing and the gateway runs as before.
import { getHeapStatistics } from 'node:v8';

type MemoryReducingGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** `gc` as exposed by --expose-gc, or null. */
function exposedGc(): MemoryReducingGc | null {
  return typeof globalThis.gc === 'function' ? (globalThis.gc as unknown as MemoryReducingGc) : null;
}

/** Runs `rounds` memory-reducing collections; false if gc is not exposed. The caller must be idle. */
export function releaseMemory(rounds: number, gc: MemoryReducingGc | null = exposedGc()): boolean {
  if (!gc) return false;
  for (let i = 0; i < rounds; i++) gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}

interface IdleWatchOptions {
  /** How often the heap is sampled. */
  tickMs: number;
  /** Consecutive quiet ticks before memory is released. */
  quietTicks: number;
  /** Heap growth per tick (bytes) at or below which a tick counts as quiet: timers, a rare request. */
  quietAllocatedBytes: number;
  /** Heap committed since the last release (bytes) that makes a release worth its pause. */
  minGrowthBytes: number;
  gc?: MemoryReducingGc | null;
  /** The heap's live and not yet collected bytes (v8 used_heap_size) and its committed bytes (total_physical_size). */
  heap?: () => { used: number; committed: number };
  onRelease?: (before: number, after: number) => void;
}

// An idle gateway allocates ~20 KB a second (its timers); a request ~40 KB: quiet means under two requests
// a second, for five seconds.
export const IDLE_WATCH_DEFAULTS: IdleWatchOptions = { tickMs: 1000, quietTicks: 5, quietAllocatedBytes: 64 * 1024, minGrowthBytes: 4 * 1024 * 1024 };

function v8Heap(): { used: number; committed: number } {
  const { used_heap_size: used, total_physical_size: committed } = getHeapStatistics();
  return { used, committed };
}

/**
 * After work, once the heap has (nearly) stopped growing for `quietTicks` ticks and its committed size
 * has grown by `minGrowthBytes` since the last release, runs one memory-reducing collection. Costs a
 * heap reading per tick and nothing per request; the collection's pause (tens of ms) falls in a quiet
 * period, at most once per growth of the heap (under steady traffic the young generation's second
 * semi-space is committed again at the first scavenge, so a gateway that stays busy is left alone).
 * Returns a stop function; does nothing without an exposed gc.
 */
export function watchIdleMemory(options: IdleWatchOptions = IDLE_WATCH_DEFAULTS): () => void {
  const gc = options.gc === undefined ? exposedGc() : options.gc;
  if (!gc) return () => {};
  const heap = options.heap ?? v8Heap;
  let last = heap();
  let releasedAt = last.committed;
  let quiet = 0;
  const timer = setInterval(() => {
    const now = heap();
    const allocated = now.used - last.used;
    last = now;
    // A drop means a collection ran: the heap was busy enough to need one.
    if (allocated < 0 || allocated > options.quietAllocatedBytes) {
      quiet = 0;
      return;
    }
    if (++quiet < options.quietTicks) return;
    releasedAt = Math.min(releasedAt, now.committed);
    if (now.committed - releasedAt < options.minGrowthBytes) return;
    releaseMemory(1, gc);
    last = heap();
    releasedAt = last.committed;
    quiet = 0;
    options.onRelease?.(now.committed, releasedAt);
  }, options.tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
