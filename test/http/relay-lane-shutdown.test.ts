// Stopping the gateway (src/start-gateway.ts stop()) while the lean relay lane has requests in flight: a
// whole answer still being made upstream, a stream mid-way, a body still arriving: each is served and
// charged; a new request pipelined behind one in flight is refused with 503 and its connection closed; an
// idle kept-alive connection is closed; a new connection is refused.
import { connect, type Socket } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { envelopeProblem } from '../helpers/error-envelopes.ts';
import type { RelayLane } from '../../src/http/relay-lane.ts';

const KEY = testKey('laneshutdown');
let upstream: OpenAISimulator;
let gateway: TestGateway;
const took: boolean[] = [];

const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello shutdown' }] });
const streamed = JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'stream shutdown' }] });
const request = (body: string) => `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** A raw connection that collects everything the gateway sends until it closes. */
function openConnection(port: number): { socket: Socket; text: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('error', () => {});
  return { socket, text: () => text, closed: new Promise((resolve) => socket.once('close', () => resolve())) };
}

const outcome = {
  whole: '',
  stream: '',
  halfBody: '',
  keptAlive: '',
  fresh: '',
  rows: [] as { status: number; cost_micros: number }[],
};

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  gateway = await startTestGateway({
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'shutdown', balance: 10 }],
    keys: [{ name: 'shutdown', key: KEY, user: 'shutdown' }],
  }, { env: { SHUTDOWN_GRACE_MS: '10000' } });
  const lane = gateway.app.relayLane as RelayLane;
  const serve = lane.serve.bind(lane);
  vi.spyOn(lane, 'serve').mockImplementation((incoming, response) => {
    const taken = serve(incoming, response);
    took.push(taken);
    return taken;
  });
  const port = Number(new URL(gateway.url).port);

  // A kept-alive connection with one answered request, idle when the stop begins.
  const keptAlive = openConnection(port);
  keptAlive.socket.write(request(chat));
  while (!keptAlive.text().includes('"usage"')) await new Promise((resolve) => setTimeout(resolve, 10));
  // In flight when the stop begins: a whole answer the upstream delays, a stream sent slowly, a body half sent.
  upstream.script({ delayMs: 400 }, { chunkDelayMs: 60 });
  const whole = openConnection(port);
  whole.socket.write(request(chat));
  const stream = openConnection(port);
  stream.socket.write(request(streamed));
  const halfBody = openConnection(port);
  const half = request(chat);
  halfBody.socket.write(half.slice(0, half.length - 10));
  while (took.length < 4 || stream.text().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));

  const stopped = gateway.stop();
  await new Promise((resolve) => setTimeout(resolve, 50));
  halfBody.socket.write(half.slice(half.length - 10));
  // Pipelined behind the whole answer still in flight: it arrives while the gateway is closing.
  whole.socket.write(request(chat));
  outcome.fresh = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: chat })
    .then((response) => String(response.status), (error: { cause?: { code?: string } }) => error.cause?.code ?? 'failed');
  await stopped;
  await Promise.all([whole.closed, stream.closed, halfBody.closed, keptAlive.closed]);
  outcome.whole = whole.text();
  outcome.stream = stream.text();
  outcome.halfBody = halfBody.text();
  outcome.keptAlive = keptAlive.text();
  const database = new DatabaseSync(join(gateway.dir, 'gateway.db'), { readOnly: true });
  outcome.rows = database.prepare('SELECT status, cost_micros FROM usage_logs ORDER BY id').all() as typeof outcome.rows;
  database.close();
});

afterAll(async () => {
  await rm(gateway.dir, { recursive: true, force: true });
  await upstream.close();
});

describe('stopping the gateway with lane requests in flight', () => {
  it('serves and charges every lane request already received, the one whose body was still arriving too', () => {
    expect(took.slice(0, 4)).toEqual([true, true, true, true]);
    expect(outcome.whole).toMatch(/^HTTP\/1\.1 200 /);
    expect(outcome.whole).toContain('"chat.completion"');
    expect(outcome.stream).toMatch(/^HTTP\/1\.1 200 /);
    expect(outcome.stream).toContain('data: [DONE]');
    expect(outcome.halfBody).toMatch(/^HTTP\/1\.1 200 /);
    // The kept-alive connection's first call, and the three in flight: each logged and charged.
    expect(outcome.rows.length).toBe(4);
    for (const row of outcome.rows) {
      expect(row.status).toBe(200);
      expect(row.cost_micros).toBeGreaterThan(0);
    }
  });

  it('refuses a request arriving on a busy connection with 503 and closes it; closes idle ones; refuses new ones', () => {
    const answers = outcome.whole.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => answer.slice(9, 12))).toEqual(['200', '503']);
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
    expect(took[4]).toBe(false);
    expect(outcome.keptAlive.split(/(?=HTTP\/1\.1 )/).map((answer) => answer.slice(9, 12))).toEqual(['200']);
    expect(outcome.fresh).toBe('ECONNREFUSED');
  });

  // The lane leaves requests to Fastify once closing; Fastify's own 503 (return503OnClosing) was its bare
  // `{"error":"Service Unavailable",…}`; src/app.ts now answers GW_ERR_SHUTTING_DOWN in the caller's envelope.
  it('refuses it in the caller’s error envelope', () => {
    const refused = outcome.whole.split(/(?=HTTP\/1\.1 )/)[1] ?? '';
    expect(envelopeProblem('openai', 503, refused.slice(refused.indexOf('\r\n\r\n') + 4))).toBeNull();
    expect(refused).toContain('"code":"service_unavailable"');
    expect(refused).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refused).toMatch(/\r\nx-request-id: req_[0-9a-f]{32}\r\n/i);
  });
});
