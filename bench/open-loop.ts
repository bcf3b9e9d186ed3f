// Open-loop latency client: sends requests on a fixed schedule whatever the answers do, and measures each
// from its scheduled start (no coordinated omission), with sub-millisecond resolution.
// Usage: node bench/open-loop.ts URL BODY_FILE RATE SECONDS [AUTH] [--ttfb]
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const [url, bodyFile, rateText, secondsText, auth = '', ...flags] = process.argv.slice(2);
if (!url || !bodyFile || !rateText || !secondsText) {
  process.stderr.write('usage: open-loop.ts URL BODY_FILE RATE SECONDS [AUTH] [--ttfb]\n');
  process.exit(2);
}
const measureFirstByte = flags.includes('--ttfb');
const body = readFileSync(bodyFile);
const rate = Number(rateText);
const total = Math.round(rate * Number(secondsText));
const target = new URL(url);
const pool = new Pool(target.origin, { connections: 64 });
const headers: Record<string, string> = { 'content-type': 'application/json' };
if (auth) headers.authorization = `Bearer ${auth}`;

const latencies: number[] = [];
let failures = 0;

async function one(scheduledAt: number): Promise<void> {
  try {
    const response = await pool.request({ path: target.pathname, method: 'POST', headers, body });
    if (measureFirstByte) {
      for await (const _chunk of response.body) {
        latencies.push(performance.now() - scheduledAt);
        break;
      }
      await response.body.dump();
    } else {
      await response.body.dump();
      latencies.push(performance.now() - scheduledAt);
    }
    if (response.statusCode !== 200) failures++;
  } catch {
    failures++;
  }
}

const warmup = Math.min(200, Math.round(rate));
for (let i = 0; i < warmup; i++) await one(performance.now());
latencies.length = 0;

const start = performance.now();
const interval = 1000 / rate;
const inFlight: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  const scheduledAt = start + i * interval;
  const wait = scheduledAt - performance.now();
  if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 1));
  while (performance.now() < scheduledAt) { /* spin the last millisecond for an exact schedule */ }
  inFlight.push(one(scheduledAt));
}
await Promise.all(inFlight);
await pool.close();

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
process.stdout.write(JSON.stringify({ count: latencies.length, failures, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }) + '\n');
