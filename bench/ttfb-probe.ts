// Sequential time-to-first-byte probe over one raw keep-alive socket: no HTTP client library between the
// measurement and the bytes. Prints p50/p90/p99 in ms of the first body bytes (the first SSE event for a
// stream). Usage: node bench/ttfb-probe.ts URL KEY [COUNT] [--stream]
import { connect } from 'node:net';

const [url, key, countText = '300', ...flags] = process.argv.slice(2);
if (!url || !key) throw new Error('usage: ttfb-probe.ts URL KEY [COUNT] [--stream]');
const target = new URL(url);
const stream = flags.includes('--stream');
const body = JSON.stringify({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hello there, how are you today?' }] });
const request = `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const socket = connect(Number(target.port), target.hostname);
socket.setNoDelay(true);
await new Promise((resolve) => socket.once('connect', resolve));

/** Sends one request; resolves with the ms to the first body bytes once the whole answer has arrived. */
function once(): Promise<number> {
  let received = '';
  let firstBodyAt = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const afterHeaders = received.slice(end + 4);
      if (!firstBodyAt && afterHeaders.includes(stream ? 'data:' : '{')) firstBodyAt = performance.now();
      const complete = stream ? afterHeaders.includes('[DONE]') && afterHeaders.endsWith('0\r\n\r\n') : /content-length: (\d+)/i.test(received) && afterHeaders.length >= Number(/content-length: (\d+)/i.exec(received)![1]);
      if (!complete) return;
      socket.off('data', onData);
      resolve(firstBodyAt - started);
    };
    socket.on('data', onData);
    socket.write(request);
  });
}

const count = Number(countText);
// A pause between requests lets the CPU idle, as at a low request rate; 0 measures back to back.
const GAP_MS = Number(process.env.GAP_MS ?? 2);
for (let i = 0; i < 200; i++) await once();
const samples: number[] = [];
for (let i = 0; i < count; i++) {
  samples.push(await once());
  if (GAP_MS > 0) await new Promise((resolve) => setTimeout(resolve, GAP_MS));
}
socket.destroy();
samples.sort((a, b) => a - b);
const at = (q: number) => Number(samples[Math.floor(q * (samples.length - 1))]!.toFixed(3));
process.stdout.write(JSON.stringify({ p50: at(0.5), p90: at(0.9), p99: at(0.99) }) + '\n');
