// `npm run bench`: the same ~500-byte chat request sent directly to the simulator and through the gateway,
// alternating three times. Gateway and simulator share core 0; the load generators run on core 1.
// Prints throughput at 32 connections (wrk), latency at a fixed 200 req/s (open loop), and stream TTFB.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const here = import.meta.dirname;
const dir = mkdtempSync(join(tmpdir(), 'bench-'));

ensureWrk();
const chatBody = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant that answers briefly and precisely.' },
    { role: 'user', content: 'Summarise the benefits of connection pooling for an HTTP gateway in two sentences, please. '.repeat(3) },
  ],
  temperature: 0.2,
  max_tokens: 64,
});
const streamBody = JSON.stringify({ ...JSON.parse(chatBody), stream: true });
const chatFile = join(dir, 'chat.json');
const streamFile = join(dir, 'stream.json');
writeFileSync(chatFile, chatBody);
writeFileSync(streamFile, streamBody);

const upstream = await startServer([join(here, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
// BENCH_RELAY=bare measures the floor instead: a relay with none of the gateway's work (serve-bare-relay.ts).
const relayScript = process.env.BENCH_RELAY === 'bare' ? 'serve-bare-relay.ts' : 'serve-gateway.ts';
const gateway = await startServer([join(here, relayScript), upstream.url], gatewayNodeFlags());
const targets = [
  { name: 'direct', url: `${upstream.url}/v1/chat/completions`, key: BENCH_UPSTREAM_KEY },
  { name: 'gateway', url: `${gateway.url}/v1/chat/completions`, key: BENCH_KEY },
];
process.stdout.write(`request body: ${chatBody.length} bytes; ${SECONDS}s per run, ${ROUNDS} rounds; relay: ${relayScript}\n`);

try {
  const rps: Record<string, number[]> = { direct: [], gateway: [] };
  const latency: Record<string, { p50: number; p99: number }[]> = { direct: [], gateway: [] };
  const ttfb: Record<string, { p50: number; p99: number }[]> = { direct: [], gateway: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const throughput = runWrk(target.url, target.key);
      rps[target.name]!.push(throughput);
      const fixed = runOpenLoop(target.url, target.key, chatFile, 200, false);
      latency[target.name]!.push(fixed);
      const first = runOpenLoop(target.url, target.key, streamFile, 50, true);
      ttfb[target.name]!.push(first);
      process.stdout.write(`round ${round} ${target.name.padEnd(7)} ${throughput.toFixed(0).padStart(7)} req/s | 200 req/s p50 ${fixed.p50.toFixed(3)} ms p99 ${fixed.p99.toFixed(3)} ms | stream TTFB p50 ${first.p50.toFixed(3)} ms p99 ${first.p99.toFixed(3)} ms\n`);
    }
  }
  const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = (name: string) => ({
    rps: median(rps[name]!),
    p50: median(latency[name]!.map((l) => l.p50)),
    p99: median(latency[name]!.map((l) => l.p99)),
    ttfb50: median(ttfb[name]!.map((l) => l.p50)),
    ttfb99: median(ttfb[name]!.map((l) => l.p99)),
  });
  const direct = summary('direct');
  const through = summary('gateway');
  process.stdout.write('\nmedians over rounds\n');
  process.stdout.write(`  throughput  direct ${direct.rps.toFixed(0)} req/s, gateway ${through.rps.toFixed(0)} req/s, ratio ${(100 * through.rps / direct.rps).toFixed(1)}%\n`);
  process.stdout.write(`  latency p50 direct ${direct.p50.toFixed(3)} ms, gateway ${through.p50.toFixed(3)} ms, added ${(through.p50 - direct.p50).toFixed(3)} ms\n`);
  process.stdout.write(`  latency p99 direct ${direct.p99.toFixed(3)} ms, gateway ${through.p99.toFixed(3)} ms, added ${(through.p99 - direct.p99).toFixed(3)} ms\n`);
  process.stdout.write(`  stream TTFB p50 direct ${direct.ttfb50.toFixed(3)} ms, gateway ${through.ttfb50.toFixed(3)} ms, added ${(through.ttfb50 - direct.ttfb50).toFixed(3)} ms\n`);
  process.stdout.write(`  stream TTFB p99 direct ${direct.ttfb99.toFixed(3)} ms, gateway ${through.ttfb99.toFixed(3)} ms, added ${(through.ttfb99 - direct.ttfb99).toFixed(3)} ms\n`);
} finally {
  gateway.child.kill('SIGTERM');
  upstream.child.kill('SIGTERM');
}

function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return; // wrk --version exits 1 but exists
    process.stdout.write('installing wrk (Debian package)…\n');
    execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
  }
}

function startServer(args: string[], nodeFlags: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ url: line.slice(6).trim(), child });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

function runWrk(url: string, key: string): number {
  const script = join(dir, 'post.lua');
  writeFileSync(script, [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(chatBody)}`,
    'wrk.headers["Content-Type"] = "application/json"',
    `wrk.headers["Authorization"] = "Bearer ${key}"`,
  ].join('\n'));
  const output = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c32', `-d${SECONDS}s`, '-s', script, url], { encoding: 'utf8' });
  if (/Non-2xx/.test(output)) throw new Error(`wrk saw errors:\n${output}`);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (!match) throw new Error(`cannot read wrk output:\n${output}`);
  return Number(match[1]);
}

function runOpenLoop(url: string, key: string, bodyFile: string, rate: number, firstByte: boolean): { p50: number; p99: number } {
  const args = [join(here, 'open-loop.ts'), url, bodyFile, String(rate), String(Math.max(3, Math.round(SECONDS / 2))), key];
  if (firstByte) args.push('--ttfb');
  const output = execFileSync('taskset', ['-c', '1', process.execPath, ...args], { encoding: 'utf8' });
  const result = JSON.parse(output.trim().split('\n').pop()!) as { p50: number; p99: number; failures: number };
  if (result.failures > 0) throw new Error(`${result.failures} requests failed against ${url}`);
  return result;
}
