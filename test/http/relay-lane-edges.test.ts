// The lean relay lane (src/http/relay-lane.ts) under hostile and unusual clients, over raw sockets: every
// answer must be what Fastify answers for the same bytes (the lane's `serve` is forced to step aside for the
// Fastify run), errors come in the caller's envelope, and nothing a client sends grows memory beyond the
// body limit.
import { connect, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.ts';
import { envelopeProblem, expectedEnvelope } from '../helpers/error-envelopes.ts';
import type { RelayLane } from '../../src/http/relay-lane.ts';

const KEY = testKey('laneedges');
const BODY_LIMIT = 1024 * 1024;
const BODY_IDLE_MS = 300;
let upstream: OpenAISimulator;
let gateway: TestGateway;
let lane: RelayLane;
/** Whether the lane took each request since the last reset; `forceFastify` makes it step aside. */
let took: boolean[] = [];
let forceFastify = false;
let lastRequest: IncomingMessage | undefined;
const logLines: string[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  const sink = new Writable({ write(chunk: Buffer, _encoding, done) { logLines.push(chunk.toString()); done(); } });
  gateway = await startTestGateway({
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'edges', balance: 10 }],
    keys: [{ name: 'edges', key: KEY, user: 'edges' }],
  }, { env: { BODY_LIMIT: String(BODY_LIMIT), BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS) }, logger: pino({ level: 'trace' }, sink) });
  lane = gateway.app.relayLane as RelayLane;
  const serve = lane.serve.bind(lane);
  vi.spyOn(lane, 'serve').mockImplementation((request, response) => {
    const taken = forceFastify ? false : serve(request, response);
    lastRequest = request;
    took.push(taken);
    return taken;
  });
});

afterAll(async () => {
  await gateway.dispose();
  await upstream.close();
  process.off('unhandledRejection', onUnhandled);
});

const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello edges' }] });
const gemini = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello edges' }] }] });
const openAIKey = `Authorization: Bearer ${KEY}`;

/** One HTTP/1.1 POST as raw bytes: `head` lines go between the request line and the blank line. */
function post(path: string, head: string[], body: string | Buffer = ''): Buffer {
  return Buffer.concat([Buffer.from([`POST ${path} HTTP/1.1`, 'Host: x', ...head, '', ''].join('\r\n')), Buffer.from(body)]);
}

/** What a client can tell apart in an answer (ids and timestamps the upstream makes up removed). */
function comparable(answer: RawAnswer) {
  return {
    status: answer.status,
    dropped: answer.dropped,
    contentType: answer.headers['content-type'],
    connection: answer.headers.connection,
    requestId: /^req_[0-9a-f]{32}$/.test(answer.headers['x-request-id'] ?? ''),
    body: answer.body.replace(/"(id|created|responseId|createTime)":\s*("[^"]*"|\d+)/g, ''),
  };
}

/** Sends the same bytes down the lane and then through Fastify; checks each path really served them. */
async function bothPaths(bytes: Buffer, name: string, timeoutMs = 3_000) {
  took = [];
  forceFastify = false;
  const viaLane = await rawRequest(gateway.url, bytes, timeoutMs);
  expect(took[0], `${name}: the lane took it`).toBe(true);
  took = [];
  forceFastify = true;
  try {
    const viaFastify = await rawRequest(gateway.url, bytes, timeoutMs);
    expect(took[0], `${name}: Fastify served it`).toBe(false);
    return { lane: comparable(viaLane), fastify: comparable(viaFastify) };
  } finally {
    forceFastify = false;
  }
}

/** The same bytes to the gateway as it is (lane or not, as it decides) and to Fastify alone. */
async function gatewayAndFastify(bytes: Buffer, timeoutMs = 5_000) {
  took = [];
  const viaGateway = comparable(await rawRequest(gateway.url, bytes, timeoutMs));
  const laneTook = took[0];
  forceFastify = true;
  try {
    return { gateway: viaGateway, fastify: comparable(await rawRequest(gateway.url, bytes, timeoutMs)), laneTook };
  } finally {
    forceFastify = false;
  }
}

function withLength(path: string, head: string[], body: string): Buffer {
  return post(path, [...head, `Content-Length: ${Buffer.byteLength(body)}`], body);
}

describe('the lean relay lane at the edges', () => {
  it('holds a body that arrives in 1-byte chunks in one buffer, not a Buffer object per byte', async () => {
    // Kept chunk by chunk, 500 kB sent as 1-byte chunks held ~95 MB of heap until the body ended: BODY_LIMIT
    // (20 MB by default) then let one request take gigabytes.
    const { held, bytes, answer } = await heapHeldByOneByteChunks();
    expect(took).toEqual([true]);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(held, `heap held for a ${bytes}-byte body`).toBeLessThan(16 * bytes);
  });

  // Fastify's path had the same fault (its `parseAs: 'buffer'` kept every chunk; now src/http/read-body.ts),
  // and any URL with a query string or a browser's Origin reaches it.
  it('holds such a body in bounded memory through Fastify too', async () => {
    forceFastify = true;
    try {
      const { held, bytes, answer } = await heapHeldByOneByteChunks();
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(held, `heap held for a ${bytes}-byte body`).toBeLessThan(16 * bytes);
    } finally {
      forceFastify = false;
    }
  });

  it('relays a body that arrives in many chunks byte for byte, with a declared length and chunked', async () => {
    // ~600 kB in odd-sized pieces: the buffer grows several times while the body arrives.
    const text = Array.from({ length: 6_000 }, (_, index) => `word${index} é ✓`).join(' ').repeat(4);
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
    const pieces: string[] = [];
    for (let at = 0, size = 1; at < body.length; at += size, size = (size * 7 + 3) % 40_000 + 1) pieces.push(body.slice(at, at + size));
    for (const chunked of [false, true]) {
      upstream.reset();
      took = [];
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
      let answer = '';
      const answered = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => ((answer += chunk.toString()), answer.includes('"usage"') && resolve())));
      socket.write(post('/v1/chat/completions', [openAIKey, chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${Buffer.byteLength(body)}`]));
      for (const piece of pieces) {
        socket.write(chunked ? `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n` : piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (chunked) socket.write('0\r\n\r\n');
      await answered;
      socket.destroy();
      expect(took).toEqual([true]);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect((upstream.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content).toBe(text);
    }
  });

  it('reads Content-Types as Fastify does: any well-formed one as JSON, a malformed one refused', async () => {
    const types = [
      null, 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain',
      'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset',
      ';;', 'json', 'application/json/x', 'application/ json', '/json',
    ];
    const refusedTypes = new Set([';;', 'json', 'application/json/x', 'application/ json', '/json']);
    for (const type of types) {
      const head = [openAIKey, ...(type === null ? [] : [`Content-Type: ${type}`])];
      const results = await gatewayAndFastify(withLength('/v1/chat/completions', head, chat));
      expect(results.gateway, `Content-Type ${type}`).toEqual(results.fastify);
      expect(results.gateway.status, `Content-Type ${type}`).toBe(refusedTypes.has(type ?? '') ? 400 : 200);
      // The lane takes what it reads as Fastify would; a refusal it leaves to Fastify.
      expect(results.laneTook, `Content-Type ${type}`).toBe(!refusedTypes.has(type ?? ''));
    }
    const refused = await gatewayAndFastify(withLength('/v1/messages', [`x-api-key: ${KEY}`, 'anthropic-version: 2023-06-01', 'Content-Type: ;;'], '{}'));
    expect(refused.gateway).toEqual(refused.fastify);
    expect(envelopeProblem('anthropic', refused.gateway.status, refused.gateway.body)).toBeNull();
  });

  it('answers JSON that is not an object, a BOM, duplicate keys and __proto__ keys as Fastify does', async () => {
    const bodies = [
      '[]', '1', '"string"', 'true', '\uFEFF' + chat, '{"model": ', '{}',
      JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).replace('{', '{"model":"no-such-model",'),
      // A __proto__ key is an own property of the parsed body: nothing downstream may read it as inherited.
      `{"__proto__":{"stream":true,"model":"no-such-model"},${chat.slice(1)}`,
    ];
    for (const body of bodies) {
      for (const [path, head] of [
        ['/v1/chat/completions', [openAIKey]],
        ['/v1/messages', [`x-api-key: ${KEY}`, 'anthropic-version: 2023-06-01']],
        ['/v1beta/models/gpt-4o-mini:generateContent', [`x-goog-api-key: ${KEY}`]],
      ] as const) {
        const results = await bothPaths(withLength(path, [...head, 'Content-Type: application/json'], body), `${path} ${body.slice(0, 40)}`);
        expect(results.lane, `${path} ${body.slice(0, 40)}`).toEqual(results.fastify);
        if (results.lane.status >= 400) expect(envelopeProblem(expectedEnvelope(path), results.lane.status, results.lane.body), `${path} ${body.slice(0, 40)}`).toBeNull();
      }
    }
    const proto = await rawRequest(gateway.url, withLength('/v1/chat/completions', [openAIKey], `{"__proto__":{"stream":true},${chat.slice(1)}`));
    expect(proto.status).toBe(200);
    expect(proto.headers['content-type']).toMatch(/^application\/json/);
  });

  // A JSON `null` body on Gemini's route: Fastify's handler validates null (400 "expected object, received
  // null"); the lane's relay once turned it into {} and answered "'contents' … received undefined".
  it('answers a JSON null body on Gemini’s route as Fastify does', async () => {
    const results = await bothPaths(withLength('/v1beta/models/gpt-4o-mini:generateContent', [`x-goog-api-key: ${KEY}`], 'null'), 'Gemini null');
    expect(results.lane).toEqual(results.fastify);
  });

  it('reads bodies as Fastify does: chunked, over the limit, Expect: 100-continue, a Content-Length that lies', async () => {
    const chunked = (body: string) => `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const big = 'x'.repeat(BODY_LIMIT + 1);
    const cases: [string, Buffer][] = [
      ['chunked', post('/v1/chat/completions', [openAIKey, 'Transfer-Encoding: chunked'], chunked(chat))],
      ['chunked, empty', post('/v1/chat/completions', [openAIKey, 'Transfer-Encoding: chunked'], '0\r\n\r\n')],
      ['chunked, over the limit', post('/v1/chat/completions', [openAIKey, 'Transfer-Encoding: chunked'], chunked(big))],
      ['chunked over the limit, Anthropic', post('/v1/messages', [`x-api-key: ${KEY}`, 'anthropic-version: 2023-06-01', 'Transfer-Encoding: chunked'], chunked(big))],
      ['chunked over the limit, Gemini', post(`/v1beta/models/gpt-4o-mini:generateContent?key=${KEY}`, ['Transfer-Encoding: chunked'], chunked(big))],
      ['Content-Length over the limit', post('/v1/embeddings', [openAIKey, `Content-Length: ${BODY_LIMIT + 1}`], '{')],
      ['Content-Length far over the limit, never sent', post('/v1/messages', [`x-api-key: ${KEY}`, 'Content-Length: 99999999999'])],
      ['Expect: 100-continue', post('/v1/chat/completions', [openAIKey, 'Expect: 100-continue', `Content-Length: ${chat.length}`], chat)],
      ['no body', post('/v1/chat/completions', [openAIKey])],
    ];
    for (const [name, bytes] of cases) {
      const results = await bothPaths(bytes, name);
      expect(results.lane, name).toEqual(results.fastify);
      expect(results.lane.dropped, name).toBe(false);
      const path = bytes.toString('latin1').split(' ', 2)[1]!;
      if (results.lane.status >= 400) expect(envelopeProblem(expectedEnvelope(path), results.lane.status, results.lane.body), name).toBeNull();
    }
    // More bytes than declared: the rest is read as the next request (malformed), after the first answer.
    const longer = await bothPaths(post('/v1/chat/completions', [openAIKey, `Content-Length: ${chat.length}`], `${chat}garbage\r\n\r\n`), 'more bytes than declared');
    expect(longer.lane).toEqual(longer.fastify);
  });

  it('closes a connection whose body stalls (body-idle guard) on both paths, and a stalled body costs nothing', async () => {
    const stall = async (fastify: boolean) => {
      forceFastify = fastify;
      took = [];
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write(post('/v1/chat/completions', [openAIKey, `Content-Length: ${chat.length}`], chat.slice(0, 10)));
      // Closed by the gateway, or still open well after the guard's limit.
      const closed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), BODY_IDLE_MS * 10);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      socket.destroy();
      forceFastify = false;
      expect(took, fastify ? 'Fastify' : 'lane').toEqual([!fastify]);
      return closed;
    };
    const rowsBefore = await usageRows();
    expect(await stall(false)).toBe(true);
    expect(await stall(true)).toBe(true);
    expect(await usageRows()).toBe(rowsBefore);
  });

  it('forgets a client that hangs up mid-body: nothing recorded, nothing unhandled, the next request served', async () => {
    const rowsBefore = await usageRows();
    const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
    socket.on('error', () => {});
    took = [];
    socket.write(post('/v1/chat/completions', [openAIKey, `Content-Length: ${chat.length}`], chat.slice(0, 10)));
    while (took.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    const closed = lastRequestSeen()!;
    await new Promise<void>((resolve) => (closed.destroyed ? resolve() : closed.once('close', () => resolve())));
    expect(took).toEqual([true]);
    expect(closed.listenerCount('data') + closed.listenerCount('end')).toBe(0);
    const next = await rawRequest(gateway.url, withLength('/v1/chat/completions', [openAIKey], chat));
    expect(next.status).toBe(200);
    await gateway.recorder.flush();
    expect(await usageRows()).toBe(rowsBefore + 1);
    expect(unhandled).toEqual([]);
  });

  it('serves pipelined requests on one connection in order', async () => {
    took = [];
    const one = withLength('/v1/chat/completions', [openAIKey], chat);
    const unauthenticated = withLength('/v1/messages', ['anthropic-version: 2023-06-01'], '{}');
    const gem = withLength(`/v1beta/models/gpt-4o-mini:generateContent?key=${KEY}`, [], gemini);
    const text = await new Promise<string>((resolve) => {
      const socket: Socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if ((received.match(/HTTP\/1\.1 \d+/g) ?? []).length === 4 && received.endsWith('}')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.write(Buffer.concat([one, unauthenticated, gem, one]));
    });
    expect([...text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((match) => match[1])).toEqual(['200', '401', '200', '200']);
    expect(took).toEqual([true, true, true, true]);
  });

  it('leaves to Fastify every path it does not route exactly, and every method but POST', async () => {
    const paths = [
      '/v1/chat/completions/', '//v1/chat/completions', '/v1//chat/completions', '/V1/chat/completions', '/v1/chat/completions?',
      `/v1/chat/completions?key=${KEY}`, '/v1/chat/completions#x', '/v1/chat/completions;x', '/v1/chat/%63ompletions',
      'http://x/v1/chat/completions', '/v1/messages/', '/v1/embeddings?a=1&a=2',
    ];
    for (const path of paths) {
      const results = await gatewayAndFastify(withLength(path, path.includes('key=') ? [] : [openAIKey], chat));
      expect(results.gateway, path).toEqual(results.fastify);
      expect(results.laneTook, path).toBe(false);
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']) {
      const bytes = Buffer.from(`${method} /v1/chat/completions HTTP/1.1\r\nHost: x\r\n${openAIKey}\r\nContent-Length: ${chat.length}\r\n\r\n${chat}`);
      // A HEAD answer declares a length it does not send: read until a short wait ends instead.
      const results = await gatewayAndFastify(bytes, method === 'HEAD' ? 300 : 5_000);
      expect(results.gateway, method).toEqual(results.fastify);
      expect(results.laneTook, method).toBe(false);
    }
  });

  it('takes Gemini model paths exactly when Fastify routes them to the same model', async () => {
    const paths = [
      '/v1beta/models/gpt-4o-mini:generateContent',
      '/v1beta/models/models/gpt-4o-mini:generateContent',
      '/v1beta/models//gpt-4o-mini:generateContent',
      '/v1beta/models/gpt-4o-mini;x:generateContent',
      '/v1beta/models/gpt-4o-mini/:generateContent',
      '/v1beta/models/gpt-4o-mini::generateContent',
      '/v1beta/models/gpt-4o-mini#x:generateContent',
      `/v1beta/models/gpt-4o-mini:generateContent?key=${KEY}`,
      '/v1beta/models/gpt-4o-mini:generateContent?key=',
      `/v1beta/models/gpt-4o-mini:generateContent?key=${'A'.repeat(300)}`,
    ];
    for (const path of paths) {
      const head = path.includes('key=') ? [] : [`x-goog-api-key: ${KEY}`];
      const { gateway: viaGateway, fastify: viaFastify } = await gatewayAndFastify(withLength(path, head, gemini));
      expect(viaGateway, path).toEqual(viaFastify);
      if (viaGateway.status >= 400) expect(envelopeProblem('gemini', viaGateway.status, viaGateway.body), path).toBeNull();
    }
  });

  it('counts its requests in gateway_requests_total under the same labels as Fastify', async () => {
    const requests = [
      withLength('/v1/chat/completions', [openAIKey], chat),
      withLength('/v1/chat/completions', [], chat),
      withLength('/v1/chat/completions', [openAIKey], '{"model": '),
      post('/v1/chat/completions', [openAIKey, `Content-Length: ${BODY_LIMIT + 1}`], '{'),
      withLength('/v1/messages', [`x-api-key: ${KEY}`, 'anthropic-version: 2023-06-01'], JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })),
      withLength('/v1/embeddings', [openAIKey], JSON.stringify({ model: 'no-such-model', input: 'x' })),
      withLength(`/v1beta/models/gpt-4o-mini:generateContent?key=${KEY}`, [], gemini),
      withLength('/v1beta/models/elsewhere:generateContent', [`x-goog-api-key: ${KEY}`], gemini),
    ];
    const deltas: Record<string, number>[] = [];
    for (const fastify of [false, true]) {
      const before = await requestCounts();
      forceFastify = fastify;
      took = [];
      for (const bytes of requests) await rawRequest(gateway.url, bytes);
      forceFastify = false;
      expect(took.every((taken) => taken !== fastify)).toBe(true);
      const after = await requestCounts();
      deltas.push(Object.fromEntries(Object.entries(after).map(([series, count]) => [series, count - (before[series] ?? 0)]).filter(([, delta]) => delta !== 0)));
    }
    expect(Object.keys(deltas[0]!).length).toBeGreaterThan(4);
    expect(deltas[0]).toEqual(deltas[1]);
  });

  it('never writes a key to the log, whether sent in a header or in ?key=', async () => {
    const keys = [KEY, testKey('unknownedges')];
    for (const key of keys) {
      await rawRequest(gateway.url, withLength(`/v1beta/models/gpt-4o-mini:generateContent?key=${key}`, [], gemini));
      await rawRequest(gateway.url, withLength(`/v1beta/models/gpt-4o-mini:streamGenerateContent?key=${key}`, [], '{"contents": ['));
      await rawRequest(gateway.url, withLength('/v1/chat/completions', [`Authorization: Bearer ${key}`], chat));
      await rawRequest(gateway.url, withLength('/v1/chat/completions', [`Authorization: Bearer ${key}`], '[1'));
    }
    expect(logLines.length).toBeGreaterThan(0);
    for (const key of keys) expect(logLines.filter((line) => line.includes(key.slice(3)))).toEqual([]);
  });
});

/** The request the gateway received last (a function, so TypeScript does not narrow it across awaits). */
function lastRequestSeen(): IncomingMessage | undefined {
  return lastRequest;
}

/** Rows in the usage log once every call answered so far has been recorded (recording follows the answer). */
async function usageRows(): Promise<number> {
  let count = await countUsageRows();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await countUsageRows();
    if (again === count) return count;
    count = again;
  }
}

async function countUsageRows(): Promise<number> {
  await gateway.recorder.flush();
  const rows = await gateway.database.db.selectFrom('usage_logs').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(rows.count);
}

async function requestCounts(): Promise<Record<string, number>> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('gateway_requests_total{') || line.includes('route="/metrics"')) continue;
    const space = line.lastIndexOf(' ');
    counts[line.slice(0, space)] = Number(line.slice(space + 1));
  }
  return counts;
}

/** Sends 500 kB of body in 1-byte chunks and measures the heap the gateway holds once it has read them all. */
async function heapHeldByOneByteChunks(): Promise<{ held: number; bytes: number; answer: string }> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const bytes = 500_000;
  const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const answered = new Promise<void>((resolve) => socket.on('data', () => answer.includes('\r\n\r\n') && resolve()));
  lastRequest = undefined;
  took = [];
  const head = post('/v1/chat/completions', [openAIKey, 'Content-Type: application/json', 'Transfer-Encoding: chunked']);
  socket.write(head);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const piece = Buffer.from('1\r\n \r\n'.repeat(10_000));
  for (let sent = 0; sent < bytes; sent += 10_000) {
    if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve));
  }
  // Measured once the gateway has read every byte sent, before the body ends (while it is held).
  const total = head.length + piece.length * (bytes / 10_000);
  while ((lastRequestSeen()?.socket.bytesRead ?? 0) < total) await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  const held = process.memoryUsage().heapUsed - heapBefore;
  socket.write(`${Buffer.byteLength(chat).toString(16)}\r\n${chat}\r\n0\r\n\r\n`);
  await answered;
  socket.destroy();
  return { held, bytes, answer };
}
