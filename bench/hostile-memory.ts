// What hostile input costs in memory: 3,000 malformed requests, one in ten of them with a multi-MB body, sent to the
// gateway the way `npm run bench` starts it (bench/serve-gateway.ts, `npm start`'s flags), 16 at a time.
// Prints the gateway's resident memory before, its high-water mark during, and its resident memory 15 s
// after the last answer, plus how the answers were spread over status codes (any 5xx or dropped socket
// is a defect of its own). Issue #27 aims at under 100 MB growth. HOSTILE_SETTLE=1 prints the resident
// memory every 5 s for a minute after the last answer (the idle release needs 5 quiet seconds).
//   node bench/hostile-memory.ts [--requests N] [--concurrency N] [--only NAME]
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { BENCH_KEY } from './bench-constants.ts';
import { startServer, stopServers, type BenchServer } from './bench-servers.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { peakRssMb, rssMb } from './proc-stats.ts';

const here = import.meta.dirname;
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args[args.indexOf(name) + 1] || fallback) || fallback;
const total = option('--requests', 3000);
const concurrency = option('--concurrency', 16);
const MB = 1024 * 1024;

interface HostileCase { name: string; path: string; headers: Record<string, string>; body: Buffer }

const json = { 'content-type': 'application/json' };
const anthropic = { ...json, 'anthropic-version': '2023-06-01' };
// Bodies are built once: the sender's own memory is not what is measured.
const cases: HostileCase[] = [
  { name: 'truncated JSON 1 KB', path: '/v1/chat/completions', headers: json, body: Buffer.from(`{"model":"gpt-4o-mini","messages":[${'{"role":"user",'.repeat(60)}`) },
  { name: 'not JSON 200 B', path: '/v1/chat/completions', headers: json, body: Buffer.from('model=gpt-4o-mini&messages=hi '.repeat(7)) },
  { name: 'missing messages 100 B', path: '/v1/chat/completions', headers: json, body: Buffer.from('{"model":"gpt-4o-mini","stream":"yes"}') },
  { name: 'bad role 300 B', path: '/v1/messages', headers: anthropic, body: Buffer.from('{"model":"gpt-4o-mini","max_tokens":5,"messages":[{"role":"wizard","content":"hi"}]}') },
  { name: 'bad Gemini part 200 B', path: '/v1beta/models/gpt-4o-mini:generateContent', headers: json, body: Buffer.from('{"contents":[{"parts":[{"inlineData":{"data":5}}]}]}') },
  { name: 'truncated JSON 5 MB', path: '/v1/chat/completions', headers: json, body: Buffer.from(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${'a'.repeat(5 * MB)}`) },
  { name: 'over the limit 21 MB', path: '/v1/chat/completions', headers: json, body: Buffer.alloc(21 * MB, 'a') },
  { name: 'wrong types 3 MB', path: '/v1/chat/completions', headers: json, body: Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(3 * MB) }], temperature: 'hot' })) },
  { name: 'unknown model 2 MB name', path: '/v1/chat/completions', headers: json, body: Buffer.from(JSON.stringify({ model: 'm'.repeat(2 * MB), messages: [{ role: 'user', content: 'hi' }] })) },
  { name: 'nested 1 MB', path: '/v1/messages', headers: anthropic, body: Buffer.from(`{"model":"gpt-4o-mini","max_tokens":5,"messages":${'['.repeat(500_000)}${']'.repeat(500_000)}}`) },
  { name: 'flat 1 MB', path: '/v1/messages', headers: anthropic, body: Buffer.from(`{"model":"gpt-4o-mini","max_tokens":5,"messages":[${'[],'.repeat(333_333)}[]]}`) },
  { name: 'messages without content 4 MB', path: '/v1/messages', headers: anthropic, body: Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 5, messages: Array.from({ length: 200_000 }, () => ({ role: 'user' })) })) },
  { name: 'Gemini contents 4 MB of numbers', path: '/v1beta/models/gpt-4o-mini:generateContent', headers: json, body: Buffer.from(JSON.stringify({ contents: Array.from({ length: 400_000 }, (_, i) => i) })) },
  { name: 'multipart truncated 5 MB', path: '/v1/audio/transcriptions', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\n\r\n${'x'.repeat(5 * MB)}`) },
  { name: 'responses input of numbers 3 MB', path: '/v1/responses', headers: json, body: Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', input: Array.from({ length: 300_000 }, (_, i) => i) })) },
];

// --only NAME-PREFIX: one kind of hostile request alone, to see which one costs the memory.
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] ?? '' : null;
if (only !== null) cases.splice(0, cases.length, ...cases.filter((hostile) => hostile.name.startsWith(only)));
/** Bodies of a megabyte or more: one request in ten, as "malformed requests with multi-MB bodies among them". */
const big = cases.filter((hostile) => hostile.body.length >= MB);
const small = cases.filter((hostile) => hostile.body.length < MB);
const pick = (i: number): HostileCase => (i % 10 === 9 || small.length === 0 ? big[Math.floor(i / 10) % big.length]! : small[i % small.length]!) ?? cases[i % cases.length]!;
const servers: BenchServer[] = [];
try {
  const upstream = await startServer([join(here, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
  servers.push(upstream);
  const gateway = await startServer([join(here, 'serve-gateway.ts'), upstream.url], gatewayNodeFlags(), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' });
  servers.push(gateway);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = rssMb(gateway.pid);
  const dispatcher = new Agent({ connections: concurrency });
  const statuses = new Map<string, number>();
  const count = (label: string) => statuses.set(label, (statuses.get(label) ?? 0) + 1);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const hostile = pick(next++);
      try {
        const answer = await request(`${gateway.url}${hostile.path}`, {
          method: 'POST', dispatcher, body: hostile.body,
          headers: { authorization: `Bearer ${BENCH_KEY}`, ...hostile.headers },
        });
        await answer.body.dump();
        count(`${answer.statusCode}`);
        if (process.env.HOSTILE_TRACE) console.log(hostile.name, answer.statusCode);
        if (answer.statusCode >= 500) count(`5xx from ${hostile.name}`);
      } catch (error) {
        if (process.env.HOSTILE_TRACE) console.log(hostile.name, 'dropped', (error as Error).message);
        count(`dropped (${hostile.name})`);
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (Date.now() - started) / 1000;
  for (let waited = 5; waited <= 60; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    if (process.env.HOSTILE_SETTLE) console.log(`${waited} s after: ${rssMb(gateway.pid).toFixed(0)} MB`);
    if (waited === 15 && !process.env.HOSTILE_SETTLE) break;
  }
  const after = rssMb(gateway.pid);
  const peak = peakRssMb(gateway.pid);
  await dispatcher.close();
  console.log(`${total} hostile requests in ${seconds.toFixed(1)} s, ${concurrency} at a time`);
  console.log(`answers: ${[...statuses].map(([status, n]) => `${status} ×${n}`).join(', ')}`);
  console.log(`gateway RSS: before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, 15 s after ${after.toFixed(0)} MB (growth ${(after - before).toFixed(0)} MB, peak growth ${(peak - before).toFixed(0)} MB)`);
} finally {
  stopServers(servers);
}
