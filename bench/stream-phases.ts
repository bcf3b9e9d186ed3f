// The stream phases of `npm run bench` alone (bench/run.ts): gateway CPU per streamed event, same-format
// against translated (16 concurrent ~120-event streams), and the added stream time to first byte over the
// direct simulator (open loop, 50 streams/s). A light A/B for stream work without the full benchmark.
// Usage: node bench/stream-phases.ts (STREAM_SECONDS per measurement, default 5; STREAM_ROUNDS, default 3).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_CHAT_BODY, BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';
import { startServer, stopServers, type BenchServer } from './bench-servers.ts';
import { runOpenLoop, runStreamLoad } from './load-tools.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { cpuMs } from './proc-stats.ts';

const SECONDS = Number(process.env.STREAM_SECONDS ?? 5);
const ROUNDS = Number(process.env.STREAM_ROUNDS ?? 3);
const here = import.meta.dirname;
const dir = mkdtempSync(join(tmpdir(), 'bench-streams-'));
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();
const longStream = (model: string) => JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: words }] });
const chatBody = JSON.stringify({ ...JSON.parse(BENCH_CHAT_BODY), stream: true });
const files = { same: join(dir, 'same.json'), translated: join(dir, 'translated.json'), stream: join(dir, 'stream.json') };
writeFileSync(files.same, longStream('gpt-4o-mini'));
writeFileSync(files.translated, longStream('claude-bench'));
writeFileSync(files.stream, chatBody);
const say = (text: string) => process.stdout.write(`${text}\n`);
const servers: BenchServer[] = [];
try {
  const upstream = await startServer([join(here, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
  servers.push(upstream);
  const anthropic = await startServer([join(here, 'serve-anthropic-upstream.ts')], SIMULATOR_NODE_FLAGS);
  servers.push(anthropic);
  const gateway = await startServer([join(here, 'serve-gateway.ts'), upstream.url, anthropic.url], gatewayNodeFlags(), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' });
  servers.push(gateway);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const url = `${gateway.url}/v1/chat/completions`;
  const perEvent = (file: string) => {
    runStreamLoad(url, BENCH_KEY, file, 1, 16);
    const before = cpuMs(gateway.pid);
    const load = runStreamLoad(url, BENCH_KEY, file, SECONDS, 16);
    return ((cpuMs(gateway.pid) - before) * 1000) / load.events;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const same = perEvent(files.same);
    const translated = perEvent(files.translated);
    const direct = runOpenLoop(`${upstream.url}/v1/chat/completions`, BENCH_UPSTREAM_KEY, files.stream, 50, SECONDS, true);
    const through = runOpenLoop(url, BENCH_KEY, files.stream, 50, SECONDS, true);
    say(`round ${round}: CPU per event same ${same.toFixed(2)} µs, translated ${translated.toFixed(2)} µs = ${(translated / same).toFixed(2)}× | stream TTFB p50 direct ${direct.p50.toFixed(3)} gateway ${through.p50.toFixed(3)} ms = +${(through.p50 - direct.p50).toFixed(3)} ms`);
  }
} finally {
  stopServers(servers);
}
