// Instructions per request of a gateway tree (or the bare relay), counted by valgrind's callgrind: unlike
// CPU time, the count hardly moves with what else the machine is doing, so two trees compare on a shared or
// noisy VM. `node bench/ab-instructions.ts REV_OR_DIR [REV_OR_DIR…]` (env AB_REQUESTS, default 1500; AB_WARM_UP, default 300; AB_NODE_FLAGS;
// AB_SCRIPT=bench/serve-bare-relay.ts measures the bare relay of each tree instead). Each tree's server
// runs under callgrind with instrumentation off; after 300 warm-up requests (the JIT settles) it is switched
// on (`callgrind_control -i on`) for AB_REQUESTS requests, 8 at a time, then off. All threads are counted
// (the metering worker and V8's helpers included). Two runs per tree; slow: about a minute per run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_KEY } from './bench-constants.ts';
import { startServer, stopServers } from './bench-servers.ts';
import { sendChatCalls } from './chat-calls.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { treeFor } from './bench-trees.ts';

const REQUESTS = Number(process.env.AB_REQUESTS ?? 1500);
const SCRIPT = process.env.AB_SCRIPT ?? 'bench/serve-gateway.ts';
const WARM_UP = Number(process.env.AB_WARM_UP ?? 300);
/** Extra Node flags for the measured server (e.g. `--perf-basic-prof` to name JIT code in the callgrind files). */
const EXTRA_FLAGS = (process.env.AB_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

const send = (url: string, count: number) => sendChatCalls(url, BENCH_KEY, count);

/** Instructions per request of one run of `tree`'s server behind `upstreamUrl`. */
async function instructionsPerRequest(tree: string, upstreamUrl: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ab-instructions-'));
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dir}/callgrind.%p`, process.execPath, ...gatewayNodeFlags(tree), ...EXTRA_FLAGS, join(tree, SCRIPT), upstreamUrl], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, MAX_CONNECTIONS_PER_IP: '0' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('READY ') && resolve(line.slice(6)));
    child.once('exit', (code) => reject(new Error(`${SCRIPT} exited with ${code}`)));
  });
  await send(url, WARM_UP);
  execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
  await send(url, REQUESTS);
  execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  process.stderr.write(`callgrind files (for callgrind_annotate): ${dir}\n`);
  let total = 0;
  for (const file of readdirSync(dir)) total += Number(/^totals:\s+(\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0);
  return total / REQUESTS;
}

const targets = process.argv.slice(2);
if (targets.length === 0) throw new Error('usage: node bench/ab-instructions.ts REV_OR_DIR [REV_OR_DIR…]');
const trees = targets.map(treeFor);
const upstream = await startServer([join(import.meta.dirname, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
try {
  for (const [index, tree] of trees.entries()) {
    const runs = [await instructionsPerRequest(tree, upstream.url), await instructionsPerRequest(tree, upstream.url)];
    process.stdout.write(`INSTRUCTIONS ${targets[index]} ${SCRIPT}: ${runs.map((count) => (count / 1000).toFixed(1)).join(' / ')} k per request\n`);
  }
} finally {
  stopServers([upstream]);
}
