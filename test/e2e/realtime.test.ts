// The Realtime API through the gateway: a WebSocket client (the `ws` package the openai SDK's realtime
// client uses) ↔ the gateway ↔ a realtime simulator; messages both ways, usage metered per response.done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRealtimeSimulator, type RealtimeSimulator } from '../simulators/realtime-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('realtimeuser');
const UPSTREAM_KEY = 'sk-upstream-realtime';
let upstream: RealtimeSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startRealtimeSimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'rt', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-realtime'], model_mapping: { 'gpt-realtime': 'gpt-realtime-2025-08-28' } }],
    models: [{ id: 'gpt-realtime', input_per_mtok: 4, output_per_mtok: 16 }],
    users: [{ name: 'rita', balance: 1 }],
    keys: [{ name: 'rt', key: KEY, user: 'rita' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

function connect(options: { headers?: Record<string, string>; protocols?: string[]; model?: string }): WebSocket {
  const url = `${gateway.url.replace('http', 'ws')}/v1/realtime?model=${options.model ?? 'gpt-realtime'}`;
  return new WebSocket(url, options.protocols ?? [], { headers: options.headers });
}

function nextEvent(socket: WebSocket, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const event = JSON.parse(data.toString()) as Record<string, unknown>;
      if (event.type === type) {
        socket.off('message', onMessage);
        resolve(event);
      }
    };
    socket.on('message', onMessage);
  });
}

describe('realtime', () => {
  it('relays a session both ways with the key in Authorization, mapping the model, and meters response.done', async () => {
    const socket = connect({ headers: { authorization: `Bearer ${KEY}`, 'openai-beta': 'realtime=v1' } });
    const created = await nextEvent(socket, 'session.created');
    expect((created.session as { model: string }).model).toBe('gpt-realtime-2025-08-28');
    const deltas: string[] = [];
    socket.on('message', (data) => {
      const event = JSON.parse(data.toString()) as { type: string; delta?: string };
      if (event.type === 'response.output_text.delta') deltas.push(event.delta!);
    });
    const done = nextEvent(socket, 'response.done');
    socket.send(JSON.stringify({ type: 'response.create', response: { modalities: ['text'] } }));
    await done;
    expect(deltas.join('')).toBe('Hello from the realtime simulator');
    const connection = upstream.connections.at(-1)!;
    expect(connection.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(connection.headers['openai-beta']).toBe('realtime=v1');
    expect(connection.received).toEqual([{ type: 'response.create', response: { modalities: ['text'] } }]);
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
    const until = Date.now() + 2000;
    while (!connection.closed && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(connection.closed).toBe(true);
    await gateway.recorder.flush();
    const log = await gateway.database.db.selectFrom('usage_logs').selectAll().where('endpoint', '=', '/v1/realtime').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ input_tokens: 11, output_tokens: 6, cost_micros: Math.round((11 * 4 + 6 * 16)), upstream_model: 'gpt-realtime-2025-08-28' });
  });

  it('accepts the key as the browser subprotocol and answers with the realtime protocol, never the key', async () => {
    const socket = connect({ protocols: ['realtime', `openai-insecure-api-key.${KEY}`, 'openai-beta.realtime-v1'] });
    await nextEvent(socket, 'session.created');
    expect(socket.protocol).toBe('realtime');
    socket.close();
  });

  it('refuses a bad key with 401 before upgrading', async () => {
    const socket = connect({ headers: { authorization: `Bearer ${testKey('nobody')}` } });
    const status = await new Promise<number>((resolve) => socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
    expect(status).toBe(401);
  });

  it('closes the client when the upstream closes', async () => {
    const socket = connect({ headers: { authorization: `Bearer ${KEY}` } });
    await nextEvent(socket, 'session.created');
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await upstream.close();
    await closed;
    upstream = await startRealtimeSimulator({ apiKey: UPSTREAM_KEY });
  });
});
