// The idle-memory watcher (src/idle-memory.ts): one memory-reducing collection once the heap has stopped
// growing for the set number of ticks and its committed size has grown since the last one; none while
// requests allocate, none without growth, nothing at all without an exposed gc. Driven by a fake heap
// gauge, tick by tick (ticks are counted through the gauge's reads, not timed).
import { afterEach, describe, expect, it } from 'vitest';
import { releaseMemory, watchIdleMemory } from '../../src/idle-memory.ts';

const KB = 1024;
const MB = 1024 * KB;

function harness() {
  const state = { used: 30 * MB, committed: 50 * MB, collections: 0 };
  let tickRead: (() => void) | null = null;
  const stop = watchIdleMemory({
    tickMs: 1,
    quietTicks: 3,
    quietAllocatedBytes: 64 * KB,
    minGrowthBytes: 4 * MB,
    gc: () => {
      state.collections++;
      state.used -= 5 * MB;
      state.committed -= 10 * MB; // what a collection gives back
    },
    heap: () => {
      tickRead?.();
      return { used: state.used, committed: state.committed };
    },
  });
  /** Resolves once the watcher has run `count` more ticks. */
  const tick = async (count = 1) => {
    for (let i = 0; i < count; i++) {
      await new Promise<void>((resolve) => (tickRead = resolve));
      await new Promise((resolve) => setImmediate(resolve)); // the rest of that tick
    }
  };
  return { state, tick, stop };
}

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

describe('watchIdleMemory', () => {
  it('releases once after the quiet ticks when the heap has grown, then not again until it grows again', async () => {
    const { state, tick, stop } = harness();
    stops.push(stop);
    state.committed += 8 * MB; // a burst committed the second semi-space
    await tick(2);
    expect(state.collections).toBe(0);
    await tick(1);
    expect(state.collections).toBe(1);
    await tick(6);
    expect(state.collections).toBe(1);
    state.committed += 5 * MB;
    await tick(3);
    expect(state.collections).toBe(2);
  });

  it('waits while requests allocate, or while collections run, whatever the heap', async () => {
    const { state, tick, stop } = harness();
    stops.push(stop);
    state.committed += 20 * MB;
    for (let i = 0; i < 8; i++) {
      state.used += i % 2 === 0 ? 400 * KB : -2 * MB; // requests, then a scavenge
      await tick(1);
    }
    expect(state.collections).toBe(0);
    state.used += 10 * KB; // timers only
    await tick(3);
    expect(state.collections).toBe(1);
  });

  it('does not release for growth below the threshold', async () => {
    const { state, tick, stop } = harness();
    stops.push(stop);
    state.committed += 3 * MB;
    await tick(8);
    expect(state.collections).toBe(0);
  });

  it('does nothing without an exposed gc', () => {
    expect(releaseMemory(1, null)).toBe(false);
    let reads = 0;
    const stop = watchIdleMemory({ tickMs: 1, quietTicks: 1, quietAllocatedBytes: 0, minGrowthBytes: 0, gc: null, heap: () => ({ used: reads++, committed: 0 }) });
    stop();
    expect(reads).toBe(0);
    let collections = 0;
    expect(releaseMemory(2, () => collections++)).toBe(true);
    expect(collections).toBe(2);
  });
});
