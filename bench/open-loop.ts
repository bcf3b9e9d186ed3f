// Open-loop latency client: sends requests on a fixed schedule whatever the answers do (no coordinated
// omission: a slow answer never delays the next send), and measures each from the moment it is sent,
// with sub-millisecond resolution. It never busy-waits, which would stall its own event loop and add
// the stall to the answers it is measuring.
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

async function one(): Promise<void> {
  const sentAt = performance.now();
  try {
    const response = await pool.request({ path: target.pathname, method: 'POST', headers, body });
    if (measureFirstByte) {
      // Read to the end after the first chunk: breaking out would close the connection mid-stream, so each
      // stream would cost a new connection and the gateway a client-abort path that is not what is measured.
      let first = true;
      for await (const _chunk of response.body) {
        if (first) latencies.push(performance.now() - sentAt);
        first = false;
      }
    } else {
      await response.body.dump();
      latencies.push(performance.now() - sentAt);
    }
    if (response.statusCode !== 200) failures++;
  } catch {
    failures++;
  }
}

const warmup = Math.min(200, Math.round(rate));
for (let i = 0; i < warmup; i++) await one();
latencies.length = 0;

const start = performance.now();
const interval = 1000 / rate;
const inFlight: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  const scheduledAt = start + i * interval;
  const wait = scheduledAt - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  inFlight.push(one());
}
await Promise.all(inFlight);
await pool.close();

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
process.stdout.write(JSON.stringify({ count: latencies.length, failures, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }) + '\n');
