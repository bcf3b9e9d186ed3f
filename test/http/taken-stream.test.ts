// A stream's connection is taken off Node's HTTP server while the stream runs (src/http/taken-stream.ts):
// the client must see exactly what Node's own path gave it — the events, the cost trailer, keep-alive
// after the stream, pipelined requests answered in order, `Connection: close` and HTTP/1.0 honoured, the
// keep-alive idle timeout — and the server must really have let go of the connection's parser meanwhile.
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('takenstream');
const UPSTREAM_KEY = 'sk-upstream-taken-0001';
const KEEP_ALIVE_MS = 400;
let upstream: OpenAISimulator;
let gateway: TestGateway;
let host: string;
let port: number;
/** The gateway's warnings and errors: a stream that fails on the server side is logged there. */
const problems: { msg: string }[] = [];
/** The gateway's side of every connection, to look at what Node's server still holds. */
const serverSockets: Socket[] = [];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  const sink = new Writable({ write(chunk, _encoding, done) { for (const line of String(chunk).split('\n').filter(Boolean)) problems.push(JSON.parse(line)); done(); } });
  gateway = await startTestGateway({
    channels: [{ name: 'only', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
    models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'taken', balance: 1000 }],
    keys: [{ name: 'main', key: KEY, user: 'taken' }],
  }, { logger: pino({ level: 'warn' }, sink) });
  gateway.app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
  const url = new URL(gateway.url);
  host = url.hostname;
  port = Number(url.port);
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

beforeEach(() => {
  upstream.reset();
  problems.length = 0;
});

function chatBody(stream: boolean, content = 'hello there'): string {
  return JSON.stringify({ model: 'gpt-4o', stream, messages: [{ role: 'user', content }] });
}

interface Answer {
  status: number;
  text: string;
  trailers: NodeJS.Dict<string>;
  headers: IncomingMessage['headers'];
  localPort: number;
}

/** One call through node:http (it reads trailers) on the given agent; to another gateway's port if given. */
function call(agent: Agent, stream: boolean, extraHeaders: Record<string, string> = {}, toPort = port): Promise<Answer> {
  const body = chatBody(stream);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host, port: toPort, method: 'POST', path: '/v1/chat/completions', agent, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extraHeaders } }, (response) => {
      const localPort = response.socket.localPort!;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString('utf8'), trailers: response.trailers, headers: response.headers, localPort }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function rawRequest(body: string, extraHeaders = '', version = 'HTTP/1.1'): string {
  return `POST /v1/chat/completions ${version}\r\nhost: ${host}\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extraHeaders}\r\n${body}`;
}

/** Everything the server sends on a raw connection until it closes it. */
function readUntilClosed(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/** The call's usage row, once the metering queue has written it. */
async function loggedRow(requestId: string | undefined, from: TestGateway = gateway) {
  expect(requestId).toBeDefined();
  for (let tries = 0; tries < 200; tries += 1) {
    const row = await from.database.db.selectFrom('usage_logs').select(['cost_micros', 'status', 'error_code']).where('request_id', '=', requestId!).executeTakeFirst();
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no usage row for ${requestId}`);
}

/** The call's cost as logged; a stream delivered in full is logged as such (no error code). */
async function costOf(requestId: string): Promise<number> {
  const row = await loggedRow(requestId);
  expect(row).toMatchObject({ status: 200, error_code: null });
  return Number(row.cost_micros);
}

/**
 * A stream held open on a raw connection (the upstream falls silent after two events): the client's socket,
 * the gateway's side of it, and the call's request id, once the first event is in.
 */
async function holdStream(): Promise<{ socket: Socket; serverSide: Socket; requestId: string | undefined }> {
  upstream.script({ stallAfterChunks: 2 });
  const before = serverSockets.length;
  const socket = connect(port, host);
  socket.on('error', () => {});
  socket.write(rawRequest(chatBody(true)));
  const first = await new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
  const serverSide = serverSockets[before]!;
  expect(serverSide).toBeDefined();
  return { socket, serverSide, requestId: /x-request-id: (\S+)\r\n/i.exec(first)?.[1] };
}

describe('a stream taken off Node\'s HTTP server', () => {
  it('answers streams and whole answers alike on one kept-alive connection, each stream with its cost trailer', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = [await call(agent, true), await call(agent, false), await call(agent, true), await call(agent, true), await call(agent, false)];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      // One connection for all five: the server handed it back after each stream.
      expect(new Set(answers.map((answer) => answer.localPort)).size).toBe(1);
      for (const streamed of [answers[0]!, answers[2]!, answers[3]!]) {
        expect(streamed.headers['transfer-encoding']).toBe('chunked');
        expect(streamed.headers.connection).toBe('keep-alive');
        expect(streamed.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
        expect(streamed.text).toContain('"chat.completion.chunk"');
        const cost = streamed.trailers['x-gateway-cost'];
        expect(cost).toMatch(/^\d+$/);
        expect(Number(cost)).toBe(await costOf(String(streamed.headers['x-request-id'])));
      }
      expect(JSON.parse(answers[1]!.text).object).toBe('chat.completion');
      expect(problems).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  it('does the same for a stream Fastify serves (a browser\'s request with CORS on), CORS headers included', async () => {
    const corsProblems: { msg: string }[] = [];
    const sink = new Writable({ write(chunk, _encoding, done) { for (const line of String(chunk).split('\n').filter(Boolean)) corsProblems.push(JSON.parse(line)); done(); } });
    const withCors = await startTestGateway({
      channels: [{ name: 'only', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
      models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
      users: [{ name: 'taken', balance: 1000 }],
      keys: [{ name: 'main', key: KEY, user: 'taken' }],
    }, { env: { CORS_ORIGINS: 'https://app.example' }, logger: pino({ level: 'warn' }, sink) });
    const corsSockets: Socket[] = [];
    withCors.app.server.on('connection', (socket: Socket) => corsSockets.push(socket));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const origin = { origin: 'https://app.example' };
      const corsPort = Number(new URL(withCors.url).port);
      const answers = [await call(agent, true, origin, corsPort), await call(agent, false, origin, corsPort), await call(agent, true, origin, corsPort)];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(corsSockets).toHaveLength(1);
      for (const streamed of [answers[0]!, answers[2]!]) {
        expect(streamed.headers['access-control-allow-origin']).toBe('https://app.example');
        expect(streamed.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
        expect(Number(streamed.trailers['x-gateway-cost'])).toBe(Number((await loggedRow(String(streamed.headers['x-request-id']), withCors)).cost_micros));
      }
      // Held: Fastify's stream lets go of the parser too.
      upstream.script({ stallAfterChunks: 2 });
      const held = connect(corsPort, host);
      held.write(rawRequest(chatBody(true), 'origin: https://app.example\r\n'));
      await new Promise<void>((resolve) => held.once('data', () => resolve()));
      expect((corsSockets[1] as unknown as { parser: unknown }).parser).toBeNull();
      held.destroy();
      expect(corsProblems).toEqual([]);
    } finally {
      agent.destroy();
      await withCors.dispose();
    }
  });

  it('lets go of the connection\'s parser while the stream is held, and notices the client leaving', async () => {
    const { socket, serverSide, requestId } = await holdStream();
    // Node's server keeps a parser per connection with an answer open; a taken stream's is gone.
    expect((serverSide as unknown as { parser: unknown }).parser).toBeNull();
    const closed = new Promise((resolve) => serverSide.once('close', resolve));
    socket.destroy();
    await closed;
    // The call is recorded as the client's leaving (the upstream is stopped), charged for what it got.
    const row = await loggedRow(requestId);
    // A stream that had begun keeps its 200 in the log; the error code says the client left.
    expect(row).toMatchObject({ status: 200, error_code: 'GW_ERR_CLIENT_GONE' });
  });

  it('answers a request pipelined behind a stream after the stream, in order', async () => {
    upstream.script({ chunkDelayMs: 30 });
    const socket = connect(port, host);
    const everything = readUntilClosed(socket);
    socket.write(rawRequest(chatBody(true)));
    // Sent while the stream is under way, on the same connection.
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(rawRequest(chatBody(false, 'second'), 'connection: close\r\n'));
    const text = await everything;
    const streamEnd = text.indexOf('0\r\nx-gateway-cost: ');
    const second = text.indexOf('HTTP/1.1 200', 10);
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(text.indexOf('data: [DONE]')).toBeGreaterThan(0);
    expect(streamEnd).toBeGreaterThan(text.indexOf('data: [DONE]'));
    expect(second).toBeGreaterThan(streamEnd);
    expect(text.slice(second)).toContain('"object":"chat.completion"');
    expect(problems).toEqual([]);
  });

  it('notices a client leaving after it pipelined a request behind a held stream', async () => {
    const { socket, serverSide, requestId } = await holdStream();
    socket.write(rawRequest(chatBody(false, 'queued behind the stream')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const serverClosed = new Promise((resolve) => serverSide.once('close', resolve));
    socket.destroy();
    // The upstream is silent, so no write to the client fails: the gateway must see the hang-up itself.
    await serverClosed;
    const row = await loggedRow(requestId);
    expect(row).toMatchObject({ error_code: 'GW_ERR_CLIENT_GONE' });
  });

  it('cuts a connection whose client sends more than a pipelined request while its stream is held', async () => {
    const { socket, requestId } = await holdStream();
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // 8 MB that no request needs, while the upstream is silent: the gateway must not keep reading it.
    const junk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 128 && !socket.destroyed; i += 1) socket.write(junk);
    await closed;
    const row = await loggedRow(requestId);
    expect(row).toMatchObject({ error_code: 'GW_ERR_CLIENT_GONE' });
  });

  it('closes the connection after the stream when the client asked (Connection: close)', async () => {
    const socket = connect(port, host);
    const everything = readUntilClosed(socket);
    socket.write(rawRequest(chatBody(true), 'connection: close\r\n'));
    const text = await everything;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.toLowerCase()).toContain('connection: close\r\n');
    expect(text).toMatch(/data: \[DONE\]\n\n\r\n0\r\nx-gateway-cost: \d+\r\n\r\n$/);
  });

  it('survives a client that resets the connection as the stream closes it (Connection: close)', async () => {
    for (let round = 0; round < 20; round += 1) {
      const socket = connect(port, host);
      socket.write(rawRequest(chatBody(true), 'connection: close\r\n'));
      await new Promise<void>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          // The last chunk is in: reset (RST) instead of closing, while the gateway is ending its side.
          if (text.endsWith('\r\n0\r\n\r\n') || /\r\n0\r\nx-gateway-cost: \d+\r\n\r\n$/.test(text)) {
            socket.resetAndDestroy();
            resolve();
          }
        });
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
      });
    }
    // Still serving (an unhandled socket 'error' would have ended the process and this test run).
    const agent = new Agent({ keepAlive: false });
    try {
      expect((await call(agent, true)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('leaves an HTTP/1.0 stream to Node: no chunked framing, the end of the body is the end of the connection', async () => {
    const socket = connect(port, host);
    const everything = readUntilClosed(socket);
    socket.write(rawRequest(chatBody(true), '', 'HTTP/1.0'));
    const text = await everything;
    const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(head.toLowerCase()).not.toContain('transfer-encoding');
    expect(body.startsWith('data: ')).toBe(true);
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('closes a connection left idle after a stream (the keep-alive timeout), but not one busy with its next call', async () => {
    // A short keep-alive timeout needs a gateway of its own (Node's clients do not reuse a connection
    // announced with `Keep-Alive: timeout=0`, which the other cases need).
    const shortKeepAlive = await startTestGateway({
      channels: [{ name: 'only', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
      models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
      users: [{ name: 'taken', balance: 1000 }],
      keys: [{ name: 'main', key: KEY, user: 'taken' }],
    }, { env: { KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS) } });
    const shortPort = Number(new URL(shortKeepAlive.url).port);
    try {
      // Idle: the server closes it after KEEP_ALIVE_TIMEOUT_MS.
      const idle = connect(shortPort, host);
      const idleText = readUntilClosed(idle);
      idle.write(rawRequest(chatBody(true)));
      expect(await idleText).toContain('data: [DONE]');

      // Busy: the next call's answer takes longer than the keep-alive timeout and still arrives.
      upstream.script({}, { delayMs: KEEP_ALIVE_MS * 3 });
      const busy = connect(shortPort, host);
      const busyText = readUntilClosed(busy);
      busy.write(rawRequest(chatBody(true)));
      await new Promise<void>((resolve) => {
        const onData = (chunk: Buffer) => {
          if (!chunk.toString('utf8').includes('x-gateway-cost')) return;
          busy.off('data', onData);
          resolve();
        };
        busy.on('data', onData);
      });
      busy.write(rawRequest(chatBody(false, 'slow one'), 'connection: close\r\n'));
      const text = await busyText;
      expect(text.slice(text.indexOf('x-gateway-cost'))).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"object":"chat.completion"/);
    } finally {
      await shortKeepAlive.dispose();
    }
  });
});
