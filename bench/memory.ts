// The gateway's memory alone, the way `npm run bench` starts it (bench/serve-gateway.ts, `npm start`'s
// flags, on core 0, the load on core 1): idle RSS 3 s after READY and, with --peak, the high-water mark
// (VmHWM) after one round of the benchmark's main phases (wrk 32 connections, 200 req/s, stream first
// byte at 50/s, 16 concurrent long streams), with the high-water mark after each phase, so the phase that
// sets the peak shows. `--breakdown` preloads bench/memory-probe.ts (heap spaces, module counts per
// thread). `--trace` samples the gateway's RSS every 250 ms through the run and prints the samples.
// Extra gateway flags: MEMORY_NODE_FLAGS="--flag …".
//   node bench/memory.ts [--peak] [--breakdown] [--trace] [--seconds N]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_CHAT_BODY, BENCH_KEY } from './bench-constants.ts';
import { startServer, stopServers, type BenchServer } from './bench-servers.ts';
import { ensureWrk, runOpenLoop, runStreamLoad, runWrk } from './load-tools.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { cpuMs, peakRssMb, rssMb } from './proc-stats.ts';

const here = import.meta.dirname;
const args = process.argv.slice(2);
const peak = args.includes('--peak');
const breakdown = args.includes('--breakdown');
const trace = args.includes('--trace');
const seconds = Number(args[args.indexOf('--seconds') + 1] || 8) || 8;
const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
const chatBody = BENCH_CHAT_BODY;
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();
const files = { chat: join(dir, 'chat.json'), stream: join(dir, 'stream.json'), long: join(dir, 'long.json') };
writeFileSync(files.chat, chatBody);
writeFileSync(files.stream, JSON.stringify({ ...JSON.parse(chatBody), stream: true }));
writeFileSync(files.long, JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: words }] }));

const extraFlags = (process.env.MEMORY_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const flags = [...gatewayNodeFlags(), ...extraFlags, ...(breakdown ? [`--import=${join(here, 'memory-probe.ts')}`] : [])];
const servers: BenchServer[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
try {
  const upstream = await startServer([join(here, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
  servers.push(upstream);
  const gateway = await startServer([join(here, 'serve-gateway.ts'), upstream.url], flags, { ...process.env, MAX_CONNECTIONS_PER_IP: '0' });
  servers.push(gateway);
  // The load phases run synchronously (execFileSync), so the samples come from a child shell.
  const sampler = trace ? spawn('sh', ['-c', `while grep -h VmRSS /proc/${gateway.pid}/status; do sleep 0.25; done`], { stdio: ['ignore', 'pipe', 'ignore'] }) : null;
  const samples: string[] = [];
  sampler?.stdout.setEncoding('utf8').on('data', (chunk: string) => samples.push(...(chunk.match(/\d+(?= kB)/g) ?? []).map((kb) => (Number(kb) / 1024).toFixed(0))));
  await sleep(3000);
  const line = [`flags ${flags.join(' ')}`, `idle ${rssMb(gateway.pid).toFixed(1)} MB`];
  const phase = (name: string) => `${name} ${rssMb(gateway.pid).toFixed(1)} (hwm ${peakRssMb(gateway.pid).toFixed(1)})`;
  if (peak) {
    ensureWrk();
    const url = `${gateway.url}/v1/chat/completions`;
    const cpuBefore = cpuMs(gateway.pid);
    const { requests, rps } = runWrk(url, BENCH_KEY, chatBody, seconds, dir);
    const cpuUs = ((cpuMs(gateway.pid) - cpuBefore) * 1000) / requests;
    line.push(`${phase('after wrk')} MB, ${rps.toFixed(0)} req/s, ${cpuUs.toFixed(1)} µs CPU/req`);
    const fixed = runOpenLoop(url, BENCH_KEY, files.chat, 200, 4, false);
    line.push(phase('after 200 req/s'));
    runOpenLoop(url, BENCH_KEY, files.stream, 50, 4, true);
    line.push(phase('after first byte'));
    runStreamLoad(url, BENCH_KEY, files.long, 4, 16);
    line.push(phase('after streams'));
    line.push(`200 req/s p50 ${fixed.p50.toFixed(3)} p99 ${fixed.p99.toFixed(3)} ms`, `peak ${peakRssMb(gateway.pid).toFixed(1)} MB, now ${rssMb(gateway.pid).toFixed(1)} MB`);
  }
  if (sampler) {
    await sleep(500); // let the samples taken during the synchronous phases arrive
    sampler.kill();
  }
  if (trace) process.stdout.write(`RSS every 250 ms (MB): ${samples.join(' ')}\n`);
  process.stdout.write(`MEMORY ${line.join(' | ')}\n`);
  if (breakdown) await sleep(500);
} finally {
  stopServers(servers);
}
