// `npm run bench:soak`: a long steady run with failing and streaming upstreams mixed in, to show that
// nothing grows and nothing goes uncounted. Not a timed test: it prints one closing verdict line.
//
// A gateway process (the flags of `npm start`, SQLite) in front of a healthy OpenAI simulator and a failing
// upstream (serve-faulty-upstream.ts: 500s, hang-ups, streams cut midway). An open-loop client sends
// SOAK_RATE requests a second (default 200) for SOAK_SECONDS (default 1800), in a fixed mix: plain and
// streamed chat, calls that fail over from the failing upstream, and calls that can only fail. Every
// SOAK_SAMPLE_MS (5000) it samples the gateway's RSS and the size of /metrics. At the end it checks:
//   - RSS flat after warm-up: the median of the last 10% of samples within +10% of the median around 20%;
//   - /metrics not growing: the gateway's own series (prom-client's fixed nodejs_*/process_* set aside)
//     within +2% (+1 KiB of digits) of their size at 20% of the run, and at most 10 new series;
//   - every call accounted: usage rows for every answered call (and one for every refused one), the sum of
//     charges equal to the wallet's movement, and the ledger summing to the balance.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { Pool } from 'undici';
import { BENCH_KEY } from './bench-constants.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 1800);
const RATE = Number(process.env.SOAK_RATE ?? 200);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_MS ?? 5000);
const START_BALANCE_MICROS = 1_000_000n * 1_000_000n; // serve-soak-gateway.ts gives the user $1,000,000
const here = import.meta.dirname;

/** One slot per request, in turn: 45% chat, 35% streamed chat, 10% failover (half streamed), 10% failing. */
const MIX: { kind: string; model: string; stream: boolean }[] = [
  ...Array.from({ length: 9 }, () => ({ kind: 'chat', model: 'soak-chat', stream: false })),
  ...Array.from({ length: 7 }, () => ({ kind: 'stream', model: 'soak-chat', stream: true })),
  { kind: 'failover', model: 'soak-failover', stream: false },
  { kind: 'failover', model: 'soak-failover', stream: true },
  { kind: 'failing', model: 'soak-broken', stream: false },
  { kind: 'failing', model: 'soak-broken', stream: true },
];
const bodyFor = (model: string, stream: boolean) => JSON.stringify({
  model,
  stream,
  messages: [
    { role: 'system', content: 'You are a helpful assistant that answers briefly and precisely.' },
    { role: 'user', content: 'Summarise the benefits of connection pooling for an HTTP gateway in two sentences, please.' },
  ],
  max_tokens: 64,
});
const bodies = MIX.map((slot) => bodyFor(slot.model, slot.stream));

const good = await startProcess([join(here, 'serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
const faulty = await startProcess([join(here, 'serve-faulty-upstream.ts')], SIMULATOR_NODE_FLAGS);
const gateway = await startProcess([join(here, 'serve-soak-gateway.ts'), good.ready[0]!, faulty.ready[0]!], gatewayNodeFlags());
const [gatewayUrl, sqliteFile] = gateway.ready as [string, string];
const pool = new Pool(gatewayUrl, { connections: 128 });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_KEY}` };

const counts = new Map<string, { sent: number; answered: number; refused: number; noAnswer: number }>();
for (const slot of MIX) counts.set(slot.kind, { sent: 0, answered: 0, refused: 0, noAnswer: 0 });

async function one(index: number): Promise<void> {
  const slot = MIX[index % MIX.length]!;
  const count = counts.get(slot.kind)!;
  count.sent++;
  try {
    const response = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body: bodies[index % MIX.length]! });
    await response.body.dump({ limit: 1 << 20 });
    if (response.statusCode === 200) count.answered++;
    else count.refused++;
  } catch {
    count.noAnswer++;
  }
}

interface Sample { at: number; rss: number; metricsBytes: number; gatewayBytes: number; series: Set<string> }
const samples: Sample[] = [];
/** The series of a Prometheus text page: metric name and labels, without the value. */
const seriesOf = (text: string) => new Set(text.split('\n').filter((line) => line && !line.startsWith('#')).map((line) => line.slice(0, line.lastIndexOf(' '))));
/**
 * prom-client's default Node metrics (nodejs_*, process_*) are a fixed set whose members appear when first
 * observed (the first major GC adds nodejs_gc_duration_seconds{kind="major"}, 9 series): bounded by
 * construction, so the growth check is on the gateway's own series.
 */
const isNodeDefault = (line: string) => line.startsWith('nodejs_') || line.startsWith('process_') || line.startsWith('# HELP nodejs_') || line.startsWith('# TYPE nodejs_') || line.startsWith('# HELP process_') || line.startsWith('# TYPE process_');
const gatewayPart = (text: string) => text.split('\n').filter((line) => !isNodeDefault(line)).join('\n');
async function sample(startedAt: number): Promise<void> {
  const status = readFileSync(`/proc/${gateway.child.pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
  const metrics = await fetch(`${gatewayUrl}/metrics`, { headers: process.env.METRICS_TOKEN ? { authorization: `Bearer ${process.env.METRICS_TOKEN}` } : {} });
  const text = await metrics.text();
  const own = gatewayPart(text);
  samples.push({ at: (performance.now() - startedAt) / 1000, rss, metricsBytes: Buffer.byteLength(text), gatewayBytes: Buffer.byteLength(own), series: seriesOf(own) });
}

process.stdout.write(`soak: ${SECONDS} s at ${RATE} req/s against ${gatewayUrl} (45% chat, 35% streamed, 10% failover, 10% failing)\n`);
const total = Math.round(RATE * SECONDS);
const interval = 1000 / RATE;
const startedAt = performance.now();
const inFlight = new Set<Promise<void>>();
let nextSample = 0;
let nextReport = 30_000;
for (let i = 0; i < total; i++) {
  const scheduledAt = startedAt + i * interval;
  const wait = scheduledAt - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const call = one(i).finally(() => inFlight.delete(call));
  inFlight.add(call);
  const elapsed = performance.now() - startedAt;
  if (elapsed >= nextSample) {
    nextSample += SAMPLE_MS;
    void sample(startedAt).catch((error: unknown) => process.stderr.write(`sample failed: ${(error as Error).message}\n`));
  }
  if (elapsed >= nextReport) {
    nextReport += 30_000;
    const last = samples.at(-1);
    if (last) process.stdout.write(`  ${last.at.toFixed(0).padStart(5)} s  rss ${mb(last.rss)}  /metrics ${last.metricsBytes} B  in flight ${inFlight.size}\n`);
  }
}
await Promise.all(inFlight);
await sample(startedAt);
await pool.close();
gateway.child.kill('SIGTERM');
await new Promise((resolve) => gateway.child.once('exit', resolve));
good.child.kill('SIGTERM');
faulty.child.kill('SIGTERM');

// ---- verdict ----
const problems: string[] = [];
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const around20 = samples.filter((s) => s.at >= SECONDS * 0.15 && s.at <= SECONDS * 0.25);
const lastTenth = samples.filter((s) => s.at >= SECONDS * 0.9);
const rssRef = median(around20.map((s) => s.rss));
const rssEnd = median(lastTenth.map((s) => s.rss));
const rssMax = Math.max(...samples.filter((s) => s.at >= SECONDS * 0.2).map((s) => s.rss));
if (!(rssEnd <= rssRef * 1.1)) problems.push(`RSS grew from ${mb(rssRef)} to ${mb(rssEnd)}`);
const at20 = samples.reduce((best, s) => (Math.abs(s.at - SECONDS * 0.2) < Math.abs(best.at - SECONDS * 0.2) ? s : best), samples[0]!);
const end = samples.at(-1)!;
const metricsEnd = end.metricsBytes;
const newSeries = [...end.series].filter((series) => !at20.series.has(series));
// Growth is new series (label sets); values only gain digits. A few late-comers (a status first seen
// late) are bounded; a series per request or per input would be thousands.
if (newSeries.length > 10 || end.gatewayBytes > at20.gatewayBytes * 1.02 + 1024) {
  problems.push(`/metrics grew: the gateway's series from ${at20.gatewayBytes} to ${end.gatewayBytes} bytes (${newSeries.length} new series)`);
}

let sent = 0, answered = 0, refused = 0, noAnswer = 0;
for (const [kind, count] of counts) {
  sent += count.sent; answered += count.answered; refused += count.refused; noAnswer += count.noAnswer;
  process.stdout.write(`  ${kind.padEnd(8)} sent ${count.sent}, answered ${count.answered}, refused ${count.refused}, no answer ${count.noAnswer}\n`);
}
if (noAnswer > 0) problems.push(`${noAnswer} calls got no HTTP answer`);
const db = new DatabaseSync(sqliteFile, { readOnly: true, readBigInts: true });
const usage = db.prepare('SELECT COUNT(*) AS rows, SUM(CASE WHEN status = 200 THEN 1 ELSE 0 END) AS ok, COALESCE(SUM(cost_micros), 0) AS cost FROM usage_logs').get() as { rows: bigint; ok: bigint; cost: bigint };
const user = db.prepare("SELECT id, balance_micros FROM users WHERE name = 'soak'").get() as { id: bigint; balance_micros: bigint };
const ledger = (db.prepare('SELECT COALESCE(SUM(amount_micros), 0) AS sum FROM wallet_ledger WHERE user_id = ?').get(user.id) as { sum: bigint }).sum;
db.close();
if (Number(usage.ok) !== answered) problems.push(`usage rows for answered calls ${usage.ok} != answered calls ${answered}`);
if (Number(usage.rows) !== answered + refused) problems.push(`usage rows ${usage.rows} != calls answered or refused ${answered + refused}`);
const walletDelta = START_BALANCE_MICROS - user.balance_micros;
if (usage.cost !== walletDelta) problems.push(`sum of charges ${usage.cost} != wallet delta ${walletDelta}`);
if (ledger !== user.balance_micros) problems.push(`ledger sums to ${ledger}, balance is ${user.balance_micros}`);
if (usage.cost <= 0n) problems.push('nothing was charged');

process.stdout.write(`  RSS: ${mb(rssRef)} around 20% of the run, ${mb(rssEnd)} over the last 10% (${pct(rssEnd / rssRef)}), peak after warm-up ${mb(rssMax)}\n`);
process.stdout.write(`  /metrics: ${at20.metricsBytes} B at 20%, ${metricsEnd} B at the end; the gateway's own series ${at20.gatewayBytes} B (${at20.series.size} series) -> ${end.gatewayBytes} B (${end.series.size} series)\n`);
for (const series of newSeries.slice(0, 20)) process.stdout.write(`    new series: ${series}\n`);
process.stdout.write(`  usage rows ${usage.rows} (${usage.ok} answered), charges ${usage.cost} µUSD, wallet moved ${walletDelta} µUSD, ledger ${ledger} = balance ${user.balance_micros}\n`);
const summary = `${SECONDS} s at ${RATE} req/s, ${sent} calls (${answered} answered, ${refused} refused, ${noAnswer} unanswered); RSS ${mb(rssRef)} -> ${mb(rssEnd)} (${pct(rssEnd / rssRef)}); /metrics ${at20.metricsBytes} -> ${metricsEnd} B (gateway series ${at20.gatewayBytes} -> ${end.gatewayBytes} B); usage rows ${usage.ok} = answered ${answered}; charges ${usage.cost} = wallet delta ${walletDelta}; ledger = balance`;
process.stdout.write(problems.length === 0 ? `SOAK PASS: ${summary}\n` : `SOAK FAIL: ${problems.join('; ')} | ${summary}\n`);
process.exit(problems.length === 0 ? 0 : 1);

function mb(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

function pct(ratio: number): string {
  return `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
}

/** Starts a server script on core 0 (the load generator keeps core 1) and waits for its READY line. */
function startProcess(args: string[], nodeFlags: string[]): Promise<{ ready: string[]; child: ChildProcess }> {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ ready: line.slice(6).trim().split(' '), child });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}
