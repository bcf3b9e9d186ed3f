// `npm run bench:stream`: streaming through the gateway, direct versus same-format versus translated.
// For each path: time to the first event (sequential, 300 streams) and events per second (16 concurrent
// streams for BENCH_SECONDS). Gateway and simulators share core 0; this client runs on core 1.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const here = import.meta.dirname;
// A long user text: the simulators echo it, one event per word (~120 events per stream).
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();

const openaiUp = await start([join(here, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
const anthropicUp = await start([join(here, 'serve-anthropic-upstream.ts')], SIMULATOR_NODE_FLAGS);
const gateway = await start([join(here, 'serve-gateway.ts'), openaiUp.url, anthropicUp.url], gatewayNodeFlags());

const openaiBody = (model: string) => JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: words }] });
const anthropicBody = (model: string) => JSON.stringify({ model, stream: true, max_tokens: 1000, messages: [{ role: 'user', content: words }] });
const paths = [
  { name: 'OpenAI direct', url: `${openaiUp.url}/v1/chat/completions`, headers: { authorization: `Bearer ${BENCH_UPSTREAM_KEY}` }, body: openaiBody('gpt-4o-mini') },
  { name: 'OpenAI → gateway → OpenAI (same format)', url: `${gateway.url}/v1/chat/completions`, headers: { authorization: `Bearer ${BENCH_KEY}` }, body: openaiBody('gpt-4o-mini') },
  { name: 'Anthropic direct', url: `${anthropicUp.url}/v1/messages`, headers: { 'x-api-key': BENCH_UPSTREAM_KEY, 'anthropic-version': '2023-06-01' }, body: anthropicBody('claude-bench') },
  { name: 'OpenAI → gateway → Anthropic (translated)', url: `${gateway.url}/v1/chat/completions`, headers: { authorization: `Bearer ${BENCH_KEY}` }, body: openaiBody('claude-bench') },
];

try {
  for (const path of paths) {
    const target = new URL(path.url);
    const pool = new Pool(target.origin, { connections: 16 });
    const once = async () => {
      const started = performance.now();
      const response = await pool.request({ path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...path.headers }, body: path.body });
      let first = 0;
      let events = 0;
      for await (const chunk of response.body) {
        first ||= performance.now() - started;
        events += (chunk.toString().match(/\n\n/g) ?? []).length;
      }
      if (response.statusCode !== 200) throw new Error(`${path.name}: HTTP ${response.statusCode}`);
      return { first, events };
    };
    for (let i = 0; i < 100; i++) await once();
    const firsts: number[] = [];
    for (let i = 0; i < 300; i++) firsts.push((await once()).first);
    firsts.sort((a, b) => a - b);
    let events = 0;
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (performance.now() < until) events += (await once()).events;
    }));
    await pool.close();
    process.stdout.write(`${path.name.padEnd(44)} first event p50 ${firsts[150]!.toFixed(3)} ms p99 ${firsts[297]!.toFixed(3)} ms | ${(events / SECONDS).toFixed(0)} events/s\n`);
  }
} finally {
  for (const server of [gateway, anthropicUp, openaiUp]) server.child.kill('SIGTERM');
}

function start(args: string[], nodeFlags: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ url: line.slice(6).trim(), child });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}
