// Instructions per streamed event of a gateway tree, same-format (OpenAI client → OpenAI channel) against
// translated (OpenAI client → Anthropic channel, through the hub), counted by valgrind's callgrind: CPU time
// on the shared VM moves ±20 % from minute to minute, the instruction count hardly at all, so the ratio the
// benchmark's measureStreamCpu reports (issue 16, ≤1.3×) can be compared between trees.
// `node bench/stream-instructions.ts REV_OR_DIR [REV_OR_DIR…]` (env STREAMS_PER_PHASE, default 300).
// Each tree's gateway runs under callgrind with instrumentation off; after 400 warm-up streams of each kind,
// alternated in rounds (the JIT settles for both), it is switched on and four phases run, alternated (same, translated, same, translated),
// each ended by a dump (`callgrind_control -d`), whose totals are that phase's alone. The streams are the
// benchmark's (~120 events each, 8 at a time); events are counted at the client as bench/stream-load.ts
// does. All threads are counted (the metering worker included).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_KEY } from './bench-constants.ts';
import { startServer, stopServers } from './bench-servers.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { treeFor } from './bench-trees.ts';

const STREAMS = Number(process.env.STREAMS_PER_PHASE ?? 300);
const WARM_UP = 400;
/** More Node flags for the gateway, e.g. --perf-basic-prof to name JIT code in the dumps (/tmp/perf-PID.map). */
const EXTRA_FLAGS = (process.env.STREAM_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();
const bodyFor = (model: string) => JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: words }] });
const bodies = { same: bodyFor('gpt-4o-mini'), translated: bodyFor('claude-bench') };
type Kind = keyof typeof bodies;

/** Sends `count` streams of `kind`, 8 at a time; the SSE events received. */
async function stream(url: string, kind: Kind, count: number): Promise<number> {
  let events = 0;
  for (let sent = 0; sent < count; sent += 8) {
    await Promise.all(Array.from({ length: Math.min(8, count - sent) }, async () => {
      const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' }, body: bodies[kind] });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`answered ${response.status}: ${text.slice(0, 200)}`);
      events += text.split('\n\n').length - 1;
    }));
  }
  return events;
}

/** Instructions per event of each phase, in the order run. */
async function phases(tree: string, openaiUrl: string, anthropicUrl: string): Promise<{ kind: Kind; perEvent: number }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'stream-instructions-'));
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dir}/callgrind.%p`, process.execPath, ...gatewayNodeFlags(tree), ...EXTRA_FLAGS, join(tree, 'bench/serve-gateway.ts'), openaiUrl, anthropicUrl], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, MAX_CONNECTIONS_PER_IP: '0' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('READY ') && resolve(line.slice(6)));
    child.once('exit', (code) => reject(new Error(`serve-gateway.ts exited with ${code}`)));
  });
  // Alternated, as the phases are: code both kinds share is compiled for both before counting starts.
  for (let round = 0; round < 4; round++) {
    await stream(url, 'same', WARM_UP / 4);
    await stream(url, 'translated', WARM_UP / 4);
  }
  const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });
  control('-z');
  control('-i', 'on');
  const order: Kind[] = ['same', 'translated', 'same', 'translated'];
  const events: number[] = [];
  for (const kind of order) {
    events.push(await stream(url, kind, STREAMS));
    control('-d');
  }
  control('-i', 'off');
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  // Kept for callgrind_annotate (which functions the instructions went to).
  process.stderr.write(`callgrind dumps of ${tree}: ${dir}\n`);
  // Dumps are numbered files (callgrind.PID.1, .2, …), one per phase, in order.
  const dumps = readdirSync(dir).map((file) => ({ file, n: Number(/^callgrind\.\d+\.(\d+)$/.exec(file)?.[1] ?? 0) })).filter((d) => d.n > 0).sort((a, b) => a.n - b.n);
  if (dumps.length !== order.length) throw new Error(`expected ${order.length} dumps, found ${dumps.length}`);
  return dumps.map((dump, index) => {
    const total = Number(/^totals:\s+(\d+)/m.exec(readFileSync(join(dir, dump.file), 'utf8'))?.[1] ?? 0);
    return { kind: order[index]!, perEvent: total / events[index]! };
  });
}

const targets = process.argv.slice(2);
if (targets.length === 0) throw new Error('usage: node bench/stream-instructions.ts REV_OR_DIR [REV_OR_DIR…]');
const trees = targets.map(treeFor);
const openai = await startServer([join(import.meta.dirname, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
const anthropic = await startServer([join(import.meta.dirname, 'serve-anthropic-upstream.ts')], SIMULATOR_NODE_FLAGS);
try {
  for (const [index, tree] of trees.entries()) {
    const result = await phases(tree, openai.url, anthropic.url);
    const of = (kind: Kind) => result.filter((phase) => phase.kind === kind).map((phase) => phase.perEvent);
    const same = of('same');
    const translated = of('translated');
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const k = (list: number[]) => list.map((count) => (count / 1000).toFixed(2)).join(' / ');
    process.stdout.write(`STREAM INSTRUCTIONS ${targets[index]}: same ${k(same)} k, translated ${k(translated)} k per event = ${(mean(translated) / mean(same)).toFixed(2)}×\n`);
  }
} finally {
  stopServers([openai, anthropic]);
}
