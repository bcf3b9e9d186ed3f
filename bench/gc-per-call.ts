// What the garbage collector does per non-streamed chat call, for an A/B of trees: `node bench/gc-per-call.ts
// REV_OR_DIR [REV_OR_DIR…]` (env GC_CALLS, default 20000; GC_WARM_UP, default 5000; GC_ROUNDS, default 2). Each
// tree's bench/serve-gateway.ts runs with the flags of its `npm start` plus --trace-gc-nvp behind one shared
// upstream simulator; after the warm-up, GC_CALLS calls (8 at a time, bench/chat-calls.ts) are sent and the
// trace lines printed meanwhile are summed: scavenges and mark-compacts per 1,000 calls, bytes promoted to
// the old generation and kept in the young one per call, and the main thread's pause time per call. Unlike CPU time these counts hardly
// depend on what else the machine runs (the pauses do).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_KEY } from './bench-constants.ts';
import { startServer, stopServers } from './bench-servers.ts';
import { sendChatCalls } from './chat-calls.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { treeFor } from './bench-trees.ts';

const CALLS = Number(process.env.GC_CALLS ?? 20_000);
const WARM_UP = Number(process.env.GC_WARM_UP ?? 5_000);
const ROUNDS = Number(process.env.GC_ROUNDS ?? 2);

interface GcCounts { scavenges: number; markCompacts: number; promotedBytes: number; survivedBytes: number; pauseMs: number }

async function measure(tree: string, upstreamUrl: string): Promise<GcCounts> {
  const child = spawn(process.execPath, [...gatewayNodeFlags(tree), '--trace-gc-nvp', join(tree, 'bench/serve-gateway.ts'), upstreamUrl], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, MAX_CONNECTIONS_PER_IP: '0' },
  });
  let counting = false;
  let mainIsolate: string | undefined;
  const counts: GcCounts = { scavenges: 0, markCompacts: 0, promotedBytes: 0, survivedBytes: 0, pauseMs: 0 };
  let resolveUrl!: (url: string) => void;
  const ready = new Promise<string>((resolve) => (resolveUrl = resolve));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('READY ')) return resolveUrl(line.slice(6).trim());
    if (!line.includes('pause=')) return;
    // The metering worker's isolate traces to the same stdout: only the main isolate's lines (the first seen) count.
    const isolate = /^\[\d+:(0x[\da-f]+)/.exec(line)?.[1];
    mainIsolate ??= isolate;
    if (!counting || isolate !== mainIsolate) return;
    const field = (name: string) => Number(new RegExp(`(?:^|\\s)${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    const kind = /gc=(\w+)/.exec(line)?.[1];
    if (kind === 's') counts.scavenges++;
    else if (kind === 'mc' || kind === 'ms') counts.markCompacts++;
    counts.promotedBytes += field('promoted');
    counts.survivedBytes += field('new_space_survived');
    counts.pauseMs += field('pause');
  });
  const url = await ready;
  await sendChatCalls(url, BENCH_KEY, WARM_UP);
  counting = true;
  await sendChatCalls(url, BENCH_KEY, CALLS);
  counting = false;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return counts;
}

const targets = process.argv.slice(2);
if (targets.length === 0) throw new Error('usage: node bench/gc-per-call.ts REV_OR_DIR [REV_OR_DIR…]');
const trees = targets.map(treeFor);
const upstream = await startServer([join(import.meta.dirname, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [index, tree] of trees.entries()) {
      const c = await measure(tree, upstream.url);
      process.stdout.write(`GC ${targets[index]} round ${round}: ${(c.scavenges * 1000 / CALLS).toFixed(1)} scavenges and ${(c.markCompacts * 1000 / CALLS).toFixed(2)} mark-compacts per 1,000 calls, `
        + `${(c.promotedBytes / CALLS).toFixed(0)} B promoted and ${(c.survivedBytes / CALLS).toFixed(0)} B kept in the young generation per call, ${(c.pauseMs * 1000 / CALLS).toFixed(1)} µs of main-thread pause per call\n`);
    }
  }
} finally {
  stopServers([upstream]);
}
