// Streams for the CPU-per-event measurement: CONCURRENCY streams at a time, back to back, for SECONDS;
// prints one JSON line with the streams and SSE events received. bench/run.ts reads the gateway's CPU time
// around it, so the figure is the gateway's CPU per event whatever else the machine is doing.
// Usage: node bench/stream-load.ts URL BODY_FILE KEY SECONDS CONCURRENCY
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const [url, bodyFile, key, secondsText, concurrencyText] = process.argv.slice(2);
if (!url || !bodyFile || !key || !secondsText || !concurrencyText) throw new Error('usage: stream-load.ts URL BODY_FILE KEY SECONDS CONCURRENCY');
const target = new URL(url);
const body = readFileSync(bodyFile);
const concurrency = Number(concurrencyText);
const pool = new Pool(target.origin, { connections: concurrency });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };

let streams = 0;
let events = 0;
async function once(): Promise<void> {
  const response = await pool.request({ path: target.pathname, method: 'POST', headers, body });
  let text = '';
  for await (const chunk of response.body) text += chunk.toString();
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
  streams++;
  events += text.split('\n\n').length - 1;
}

const until = performance.now() + Number(secondsText) * 1000;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (performance.now() < until) await once();
}));
await pool.close();
process.stdout.write(`${JSON.stringify({ streams, events })}\n`);
