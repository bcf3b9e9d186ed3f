// The streams-at-scale phase: STREAMS concurrent streamed chat completions held open through the gateway at
// one moment (the upstream, bench/serve-held-stream-upstream.ts, holds each after its first event), the
// gateway's resident memory measured with all of them open and idle, then all released and every event
// checked to have arrived, in order, with [DONE]. Raw sockets keep this client's own cost low.
// Usage: node bench/streams-scale.ts GATEWAY_URL UPSTREAM_URL GATEWAY_PID STREAMS KEY [h2c] → one JSON line.
// `h2c`: the upstream speaks only HTTP/2 (prior knowledge; the gateway's channel has `http2: true`), so this
// script's own /held and /release calls go over node:http2 too.
import { connect, type Socket } from 'node:net';
import { readdirSync } from 'node:fs';
import { rssMb } from './proc-stats.ts';
import { HELD_STREAM_EVENTS } from './bench-constants.ts';
import { askHeldUpstream } from './held-upstream-control.ts';

const [gatewayUrl, upstreamUrl, pidText, streamsText, key, upstreamProtocol] = process.argv.slice(2);
if (!gatewayUrl || !upstreamUrl || !pidText || !streamsText || !key) throw new Error('usage: streams-scale.ts GATEWAY_URL UPSTREAM_URL GATEWAY_PID STREAMS KEY');
const gateway = new URL(gatewayUrl);
const gatewayPid = Number(pidText);
const streams = Number(streamsText);
/** Streams connecting but not yet at their first event: bounds the connect burst (listen backlogs). */
const OPENING_AT_ONCE = 200;


const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hold' }] });
const request = `POST /v1/chat/completions HTTP/1.1\r\nHost: ${gateway.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

interface OpenStream { socket: Socket; received: Buffer[]; firstEvent: Promise<void>; ended: Promise<string> }

function openStream(): OpenStream {
  const socket = connect(Number(gateway.port), gateway.hostname);
  socket.setNoDelay(true);
  const received: Buffer[] = [];
  let sawFirst: () => void = () => {};
  const firstEvent = new Promise<void>((resolve) => (sawFirst = resolve));
  const ended = new Promise<string>((resolve, reject) => {
    socket.on('data', (data: Buffer) => {
      received.push(data);
      if (data.includes(' e0')) sawFirst();
    });
    socket.once('end', () => {
      sawFirst(); // an answer without a first event (a refusal) must not keep the opening loop waiting
      resolve(Buffer.concat(received).toString('latin1'));
    });
    socket.once('error', reject);
  });
  ended.catch(() => sawFirst());
  socket.write(request);
  return { socket, received, firstEvent, ended };
}

/** The response body with HTTP/1.1 chunked framing removed (the gateway streams chunked). */
function bodyOf(response: string): string {
  const headerEnd = response.indexOf('\r\n\r\n');
  const head = response.slice(0, headerEnd);
  let rest = response.slice(headerEnd + 4);
  if (!/transfer-encoding:\s*chunked/i.test(head)) return rest;
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** Null when the stream is whole and in order; otherwise what is wrong with it. */
function checkStream(response: string): string | null {
  if (!response.startsWith('HTTP/1.1 200')) return `status line ${JSON.stringify(response.slice(0, 40))}`;
  const body = bodyOf(response);
  const seen = [...body.matchAll(/"content":" e(\d+)"/g)].map((match) => Number(match[1]));
  const expected = Array.from({ length: HELD_STREAM_EVENTS }, (_, index) => index);
  if (seen.join() !== expected.join()) return `events ${seen.join()} instead of ${expected.join()}`;
  if (!body.trimEnd().endsWith('data: [DONE]')) return 'no [DONE] at the end';
  return null;
}

const rssBefore = rssMb(gatewayPid);
const open: OpenStream[] = [];
const opening = new Set<Promise<void>>();
for (let index = 0; index < streams; index++) {
  const stream = openStream();
  open.push(stream);
  const first = stream.firstEvent.then(() => void opening.delete(first));
  opening.add(first);
  if (opening.size >= OPENING_AT_ONCE) await Promise.race(opening);
}
await Promise.all(opening);
const upstreamH2c = upstreamProtocol === 'h2c';
const held = Number(await askHeldUpstream(upstreamUrl, 'GET', '/held', upstreamH2c));
// Idle for a moment with every stream open, so what is measured is what an open stream keeps.
await new Promise((resolve) => setTimeout(resolve, 1000));
const rssOpen = rssMb(gatewayPid);
// Its file descriptors with every stream open: about two per stream over HTTP/1.1, one (and 1 %) over h2.
const gatewayFdsOpen = readdirSync(`/proc/${gatewayPid}/fd`).length;
await askHeldUpstream(upstreamUrl, 'POST', '/release', upstreamH2c);
const results = await Promise.allSettled(open.map((stream) => stream.ended));
const problems = new Map<string, number>();
let complete = 0;
for (const result of results) {
  const problem = result.status === 'fulfilled' ? checkStream(result.value) : `socket error ${(result.reason as Error).message}`;
  if (problem === null) complete++;
  else problems.set(problem, (problems.get(problem) ?? 0) + 1);
}
process.stdout.write(`${JSON.stringify({
  streams, held, complete, problems: Object.fromEntries(problems),
  rssBeforeMb: rssBefore, rssOpenMb: rssOpen, kbPerStream: ((rssOpen - rssBefore) * 1024) / streams, gatewayFdsOpen,
})}\n`);
