// Slow clients: headers or bodies trickled a byte at a time, or a body that stops arriving. The gateway
// closes them (with a 408 in OpenAI's envelope where an answer is still possible), caps the connections one
// address may hold, and keeps serving everyone else meanwhile. (They used to stay open forever and, at the
// open-file limit, starve every other client.)
import { connect, type Socket } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { envelopeProblem } from '../helpers/error-envelopes.ts';

const UPSTREAM_KEY = 'sk-upstream-slow-0001';
const key = testKey('slowclients');
const ATTACKER = '127.0.0.2';
const PER_IP = 40;

let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
    models: [{ id: 'gpt-4o', free: true }],
    users: [{ name: 'sam', balance: 10 }],
    keys: [{ name: 'main', key, user: 'sam' }],
  }, {
    env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2500', BODY_IDLE_TIMEOUT_MS: '1000', MAX_CONNECTIONS_PER_IP: String(PER_IP) },
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

interface SlowConnection {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  stop: () => void;
}

/** Opens a connection from `localAddress`, writes `head`, then one byte of `drip` every `everyMs` until closed. */
function slowConnection(head: string, drip: string, everyMs: number, localAddress = ATTACKER): SlowConnection {
  const { hostname, port } = new URL(gateway.url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  socket.on('error', () => {});
  socket.on('connect', () => {
    socket.write(head);
    let at = 0;
    if (drip.length > 0) {
      timer = setInterval(() => {
        if (socket.destroyed || at >= drip.length) return clearInterval(timer);
        socket.write(drip[at++]!);
      }, everyMs);
    }
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => {
    clearInterval(timer);
    resolve();
  }));
  return { socket, received: () => text, closed, stop: () => socket.destroy() };
}

/** Waits for every connection to be closed, or fails after `ms` naming how many are still open. */
async function allClosed(connections: SlowConnection[], ms: number): Promise<void> {
  let open = connections.length;
  for (const connection of connections) void connection.closed.then(() => open--);
  const deadline = Date.now() + ms;
  while (open > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(open, 'connections the gateway left open').toBe(0);
}

const chatHead = (length: number, extra = '') => `POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n${extra}Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

function expect408(connection: SlowConnection) {
  const text = connection.received();
  expect(text.startsWith('HTTP/1.1 408'), text.slice(0, 100)).toBe(true);
  expect(envelopeProblem('openai', 408, text.slice(text.indexOf('\r\n\r\n') + 4))).toBeNull();
}

describe('slow clients are closed', () => {
  it('answers 408 to headers that trickle past HEADERS_TIMEOUT_MS', async () => {
    const slow = slowConnection('POST /v1/chat/completions HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(500), 200);
    await allClosed([slow], 15_000);
    expect408(slow);
  });

  it('answers 408 to a body trickled a byte at a time past REQUEST_TIMEOUT_MS (each byte within the idle timeout)', async () => {
    const body = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}';
    const slow = slowConnection(chatHead(body.length + 500), body + ' '.repeat(500), 300);
    await allClosed([slow], 15_000);
    expect408(slow);
  });

  it('closes a connection whose body stops arriving for BODY_IDLE_TIMEOUT_MS', async () => {
    const silent = slowConnection(`${chatHead(100)}{"model":`, '', 0);
    await allClosed([silent], 15_000);
    // Closed by the body-idle guard without an answer, not by REQUEST_TIMEOUT_MS's later 408.
    expect(silent.received()).toBe('');
  });

  it('does not time out a slow answer once the request is in (a long non-streamed completion)', async () => {
    upstream.script({ delayMs: 3_500 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'take your time' }] });
    expect(completion.choices[0]!.message.content).toBeTruthy();
  });
});

describe('many trickling connections from one address', () => {
  it('caps them at MAX_CONNECTIONS_PER_IP, closes the rest in time, and keeps serving other clients', async () => {
    const body = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}' + ' '.repeat(2_000);
    const trickles = Array.from({ length: 300 }, () => slowConnection(chatHead(body.length), body, 250));
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });
    const good = await Promise.all(Array.from({ length: 25 }, (_, i) => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: `good ${i}` }] }).then(() => 'ok', (error: unknown) => String(error))));
    expect(good.filter((outcome) => outcome !== 'ok')).toEqual([]);
    await allClosed(trickles, 20_000);
    const answered408 = trickles.filter((connection) => connection.received().startsWith('HTTP/1.1 408'));
    // The ones over the cap were refused at once; those admitted got a 408 when their time was up.
    expect(answered408.length).toBeGreaterThan(0);
    expect(answered408.length).toBeLessThanOrEqual(PER_IP);
    // And the gateway still serves that address once its connections are gone.
    const after = slowConnection(chatHead(body.length, 'Connection: close\r\n') + body, '', 0);
    await allClosed([after], 15_000).catch(() => {});
    expect(after.received().startsWith('HTTP/1.1 200'), after.received().slice(0, 200)).toBe(true);
  }, 60_000);
});

describe('a client that reads a long stream slowly', () => {
  it('gets every event in order, and the gateway keeps no listener per pause (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      // ~5 MB of events (the simulator echoes the prompt one word per event): far more than the socket
      // buffers hold, so the gateway's writes wait for 'drain' again and again while the client dawdles.
      const words = Array.from({ length: 12_000 }, (_, i) => `w${i}${'x'.repeat(200)}`);
      const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: words.join(' ') }] });
      const { hostname, port } = new URL(gateway.url);
      const socket = connect({ host: hostname, port: Number(port) });
      const chunks: Buffer[] = [];
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        // Read a little, then stop reading for a while: the gateway sees its client's window close.
        socket.pause();
        setTimeout(() => socket.resume(), 2);
      });
      socket.write(chatHead(Buffer.byteLength(body), 'Connection: close\r\n') + body);
      await ended;
      const text = Buffer.concat(chunks).toString('utf8');
      expect(text.startsWith('HTTP/1.1 200'), text.slice(0, 200)).toBe(true);
      const seen = [...text.matchAll(/(w\d+)x{200}/g)].map((match) => match[1]);
      expect(seen).toEqual(words.map((word) => word.slice(0, word.indexOf('x'))));
      expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);
});
