// `npm run bench`: the same ~500-byte chat request sent directly to the simulator, through the bare relay
// (bench/serve-bare-relay.ts: node:http + undici and nothing else, the floor) and through the gateway,
// alternating BENCH_ROUNDS times. The servers share core 0; the load generators run on core 1.
// Phases: idle memory; rounds of throughput (wrk, 32 connections, with CPU time per request read from
// /proc), latency at a fixed 200 req/s (open loop) and stream time to first byte; gateway CPU per streamed
// event, same-format against translated; then a fresh gateway holding BENCH_STREAMS concurrent streams.
// Ends with one line holding every figure, so a run compares with the last at a glance.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_CHAT_BODY, BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';
import { startServer, stopServers, type BenchServer } from './bench-servers.ts';
import { ensureWrk, runOpenLoop, runStreamLoad, runStreamsScale, runWrk, streamsWithinFileLimit, type StreamsScaleResult } from './load-tools.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { closingLine, median, type TargetSummary } from './bench-summary.ts';
import { cpuMs, peakRssMb, rssMb } from './proc-stats.ts';
import { HTTP2_STREAMS_PER_CONNECTION } from '../src/upstream/upstream-agent.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** 0 skips the streams-at-scale phase (`npm run bench:streams` runs it alone). */
const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const ONLY_STREAMS = process.argv.includes('--streams-only');
/** The streams phase's channel speaks HTTP/2 (h2c) to its upstream unless BENCH_STREAMS_HTTP2=0: 100 streams
 * share an upstream connection, so 10,000 streams fit in the 20,000 file descriptors a process may have. */
const STREAMS_HTTP2 = process.env.BENCH_STREAMS_HTTP2 !== '0';
const here = import.meta.dirname;
const dir = mkdtempSync(join(tmpdir(), 'bench-'));
// Thousands of client connections come from 127.0.0.1: the per-address cap (256 by default) is lifted.
const gatewayEnv = { ...process.env, MAX_CONNECTIONS_PER_IP: '0' };

const chatBody = BENCH_CHAT_BODY;
const streamBody = JSON.stringify({ ...JSON.parse(chatBody), stream: true });
// The simulators echo a long prompt one word per event: ~120 events per stream.
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();
const longStream = (model: string) => JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: words }] });
const files = { chat: join(dir, 'chat.json'), stream: join(dir, 'stream.json'), same: join(dir, 'same.json'), translated: join(dir, 'translated.json') };
writeFileSync(files.chat, chatBody);
writeFileSync(files.stream, streamBody);
writeFileSync(files.same, longStream('gpt-4o-mini'));
writeFileSync(files.translated, longStream('claude-bench'));

const servers: BenchServer[] = [];
const start = async (script: string, args: string[], flags: string[], env?: NodeJS.ProcessEnv) => {
  const server = await startServer([join(here, script), ...args], flags, env);
  servers.push(server);
  return server;
};
const say = (text: string) => process.stdout.write(`${text}\n`);

try {
  let summaries: Record<string, TargetSummary> | null = null;
  let memory: { idleMb: number; peakMb: number } | null = null;
  let streamCpu: { sameUs: number; translatedUs: number } | null = null;
  if (!ONLY_STREAMS) {
    ensureWrk();
    const upstream = await start('serve-upstream.ts', [], SIMULATOR_NODE_FLAGS);
    const anthropic = await start('serve-anthropic-upstream.ts', [], SIMULATOR_NODE_FLAGS);
    const bare = await start('serve-bare-relay.ts', [upstream.url], SIMULATOR_NODE_FLAGS);
    // `npm ci` fills Node's compile cache for `npm start`; this start and stop, unmeasured, does the same for
    // the benchmark's own entry (bench/*.ts), so that a fresh checkout's first run reads the idle memory users
    // get and not the type stripper's ~20 MB (121 against 99 MB before this warm-up existed).
    const warmUp = await startServer([join(here, 'serve-gateway.ts'), upstream.url, anthropic.url], gatewayNodeFlags(), gatewayEnv);
    await new Promise((resolve) => {
      warmUp.child.once('exit', resolve);
      warmUp.child.kill('SIGTERM');
    });
    const gateway = await start('serve-gateway.ts', [upstream.url, anthropic.url], gatewayNodeFlags(), gatewayEnv);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // start-up work done, before any load
    const idleMb = rssMb(gateway.pid);
    say(`request body: ${chatBody.length} bytes; ${SECONDS}s per run, ${ROUNDS} rounds; gateway flags: ${gatewayNodeFlags().join(' ')}`);
    say(`gateway idle RSS ${idleMb.toFixed(1)} MB`);
    summaries = runRounds([
      { name: 'direct', url: `${upstream.url}/v1/chat/completions`, key: BENCH_UPSTREAM_KEY, pid: upstream.pid },
      { name: 'bare', url: `${bare.url}/v1/chat/completions`, key: BENCH_UPSTREAM_KEY, pid: bare.pid },
      { name: 'gateway', url: `${gateway.url}/v1/chat/completions`, key: BENCH_KEY, pid: gateway.pid },
    ]);
    streamCpu = measureStreamCpu(gateway);
    memory = { idleMb, peakMb: peakRssMb(gateway.pid) };
    say(`gateway RSS idle ${memory.idleMb.toFixed(1)} MB, peak ${memory.peakMb.toFixed(1)} MB (VmHWM, through every phase above)`);
    stopServers(servers.splice(0));
  }
  let scale: StreamsScaleResult | null = null;
  if (STREAMS > 0) scale = await measureStreamsAtScale(streamsWithinFileLimit(STREAMS, STREAMS_HTTP2 ? HTTP2_STREAMS_PER_CONNECTION : 1));
  say('');
  say(closingLine({ summaries, memory, streamCpu, scale, wantedStreams: STREAMS }));
} finally {
  stopServers(servers);
}

function runRounds(targets: { name: string; url: string; key: string; pid: number }[]): Record<string, TargetSummary> {
  const runs: Record<string, { rps: number; cpuUs: number; p50: number; p99: number; ttfb50: number; ttfb99: number }[]> = {};
  const openLoopSeconds = Math.max(3, Math.round(SECONDS / 2));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const cpuBefore = cpuMs(target.pid);
      const throughput = runWrk(target.url, target.key, chatBody, SECONDS, dir);
      const cpuUs = ((cpuMs(target.pid) - cpuBefore) * 1000) / throughput.requests;
      const fixed = runOpenLoop(target.url, target.key, files.chat, 200, openLoopSeconds, false);
      const first = runOpenLoop(target.url, target.key, files.stream, 50, openLoopSeconds, true);
      (runs[target.name] ??= []).push({ rps: throughput.rps, cpuUs, p50: fixed.p50, p99: fixed.p99, ttfb50: first.p50, ttfb99: first.p99 });
      say(`round ${round} ${target.name.padEnd(7)} ${throughput.rps.toFixed(0).padStart(6)} req/s, CPU ${cpuUs.toFixed(1).padStart(5)} µs/req | 200 req/s p50 ${fixed.p50.toFixed(3)} p99 ${fixed.p99.toFixed(3)} ms | stream TTFB p50 ${first.p50.toFixed(3)} p99 ${first.p99.toFixed(3)} ms`);
    }
  }
  const summaries: Record<string, TargetSummary> = {};
  for (const [name, list] of Object.entries(runs)) {
    summaries[name] = {
      rps: median(list.map((run) => run.rps)),
      cpuUs: median(list.map((run) => run.cpuUs)),
      p50: median(list.map((run) => run.p50)),
      p99: median(list.map((run) => run.p99)),
      ttfb50: median(list.map((run) => run.ttfb50)),
      ttfb99: median(list.map((run) => run.ttfb99)),
    };
  }
  say('\nmedians over rounds');
  for (const [name, s] of Object.entries(summaries)) {
    say(`  ${name.padEnd(7)} ${s.rps.toFixed(0).padStart(6)} req/s, CPU ${s.cpuUs.toFixed(1)} µs/req, 200 req/s p50 ${s.p50.toFixed(3)} p99 ${s.p99.toFixed(3)} ms, stream TTFB p50 ${s.ttfb50.toFixed(3)} p99 ${s.ttfb99.toFixed(3)} ms`);
  }
  return summaries;
}

/** The gateway's CPU per delivered event, 16 concurrent ~120-event streams, same-format then translated. */
function measureStreamCpu(gateway: BenchServer): { sameUs: number; translatedUs: number } {
  const url = `${gateway.url}/v1/chat/completions`;
  const perEvent = (file: string) => {
    runStreamLoad(url, BENCH_KEY, file, 1, 16); // warm-up: the converters' code paths compiled
    const before = cpuMs(gateway.pid);
    const load = runStreamLoad(url, BENCH_KEY, file, Math.max(3, Math.round(SECONDS / 2)), 16);
    const us = ((cpuMs(gateway.pid) - before) * 1000) / load.events;
    say(`  ${load.streams} streams, ${load.events} events: ${us.toFixed(2)} µs of gateway CPU per event, ${((us * load.events) / load.streams).toFixed(0)} µs per stream`);
    return us;
  };
  say('\nstreams: OpenAI client → gateway → OpenAI channel (same format)');
  const sameUs = perEvent(files.same);
  say('streams: OpenAI client → gateway → Anthropic channel (translated through the hub)');
  const translatedUs = perEvent(files.translated);
  say(`  translated / same-format CPU per event: ${(translatedUs / sameUs).toFixed(2)}×`);
  return { sameUs, translatedUs };
}

async function measureStreamsAtScale(streams: number): Promise<StreamsScaleResult> {
  const held = await start('serve-held-stream-upstream.ts', STREAMS_HTTP2 ? ['--h2c'] : [], SIMULATOR_NODE_FLAGS);
  const gateway = await start('serve-gateway.ts', [held.url], gatewayNodeFlags(), { ...gatewayEnv, BENCH_CHANNEL_HTTP2: STREAMS_HTTP2 ? '1' : '0' });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  say(`\n${streams} concurrent streams through a fresh gateway (each held open after its first event), ${STREAMS_HTTP2 ? 'HTTP/2 (h2c)' : 'HTTP/1.1'} to the upstream…`);
  const result = runStreamsScale(gateway.url, held.url, gateway.pid, streams, BENCH_KEY, STREAMS_HTTP2);
  say(`  held at once: ${result.held}; complete and in order: ${result.complete}; RSS ${result.rssBeforeMb.toFixed(1)} MB before, ${result.rssOpenMb.toFixed(1)} MB with all open: ${result.kbPerStream.toFixed(1)} KB per open stream; ${result.gatewayFdsOpen} gateway file descriptors open`);
  if (Object.keys(result.problems).length > 0) say(`  problems: ${JSON.stringify(result.problems)}`);
  stopServers([gateway, held]);
  return result;
}
