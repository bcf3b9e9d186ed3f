// The WebSocket endpoints under tracing: the client's `traceparent` (and `tracestate`) on the upgrade
// request is the parent of the span of every response made over the socket, for the Responses API's
// WebSocket mode (each response.create a call, relayed like a streamed POST) and the Realtime API (each
// response.done metered as a call, its upstream socket the attempt). Without one, each response starts a
// trace of its own. Real sockets (`ws`, as the openai SDK uses), simulators upstream, an in-process OTLP
// receiver.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startRealtimeSimulator, type RealtimeSimulator } from '../simulators/realtime-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';

const KEY = testKey('otelsockets');
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';
const TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
const SERVER = 2;
const CLIENT = 3;

let openai: OpenAISimulator;
let realtime: RealtimeSimulator;
let receiver: OtlpReceiver;
let gateway: TestGateway;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-sockets-openai' });
  realtime = await startRealtimeSimulator({ apiKey: 'sk-sockets-realtime' });
  receiver = await startOtlpReceiver();
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-sockets-openai', models: ['gpt-4o-mini'] },
      { name: 'rt', type: 'openai', base_url: realtime.url, api_key: 'sk-sockets-realtime', models: ['gpt-realtime'], model_mapping: { 'gpt-realtime': 'gpt-realtime-2025-08-28' } },
    ],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }, { id: 'gpt-realtime', input_per_mtok: 4, output_per_mtok: 16 }],
    users: [{ name: 'sol', balance: 10 }],
    keys: [{ name: 'sol-key', key: KEY, user: 'sol' }],
  }, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' } });
});
afterAll(async () => {
  await gateway?.dispose();
  await openai?.close();
  await realtime?.close();
  await receiver?.close();
});

/** A socket whose text frames are parsed; next(type) waits for the next event of that type. */
async function open(path: string, headers: Record<string, string>) {
  const socket = new WebSocket(`${gateway.url.replace(/^http/, 'ws')}${path}`, { headers: { authorization: `Bearer ${KEY}`, ...headers } });
  const waiting: { type: string; resolve: (event: Record<string, unknown>) => void }[] = [];
  socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as Record<string, unknown>;
    for (const wait of [...waiting]) {
      if (event.type === wait.type) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(event);
      }
    }
  });
  const next = (type: string) => new Promise<Record<string, unknown>>((resolve) => waiting.push({ type, resolve }));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, next };
}

/** The call spans of this route, with their children, once `count` of them have arrived. */
async function callSpans(route: string, count: number): Promise<{ call: ReceivedSpan; children: ReceivedSpan[] }[]> {
  const spans = await receiver.waitFor((all) => all.filter((span) => span.kind === SERVER && span.attributes['http.route'] === route).length >= count);
  return spans.filter((span) => span.kind === SERVER && span.attributes['http.route'] === route)
    .map((call) => ({ call, children: spans.filter((span) => span.parentSpanId === call.spanId) }));
}

describe('the Responses API over WebSocket', () => {
  it("makes each response's span a child of the traceparent sent on the upgrade", async () => {
    const { socket, next } = await open('/v1/responses', { traceparent: TRACEPARENT, tracestate: 'vendor=blue' });
    for (const text of ['first', 'second']) {
      const done = next('response.completed');
      socket.send(JSON.stringify({ type: 'response.create', model: 'gpt-4o-mini', store: false, input: text }));
      await done;
    }
    socket.close();
    const calls = await callSpans('/v1/responses', 2);
    expect(calls).toHaveLength(2);
    for (const { call, children } of calls) {
      expect([call.traceId, call.parentSpanId]).toEqual([CLIENT_TRACE, CLIENT_SPAN]);
      expect(call.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.request.stream': true, 'gateway.key.name': 'sol-key' });
      // The attempt's context went upstream: the simulator saw a traceparent of the same trace.
      expect(children.filter((span) => span.kind === CLIENT)).toHaveLength(1);
    }
    // Both turns went over the OpenAI channel's own Responses WebSocket, whose upgrade carried the first
    // attempt's traceparent (a WebSocket message has no headers): same trace.
    expect(openai.requests.slice(-2).map((request) => request.headers['x-simulator-transport'])).toEqual(['websocket', 'websocket']);
    expect(String(openai.webSocket.handshakes.at(-1)!.traceparent).split('-')[1]).toBe(CLIENT_TRACE);
  });
});

describe('the Realtime API', () => {
  it("makes each response.done's span a child of the traceparent sent on the upgrade, with the upstream socket as its attempt", async () => {
    const before = (await callSpans('/v1/realtime', 0)).length;
    const { socket, next } = await open('/v1/realtime?model=gpt-realtime', { traceparent: TRACEPARENT, 'openai-beta': 'realtime=v1' });
    await next('session.created');
    const done = next('response.done');
    socket.send(JSON.stringify({ type: 'response.create', response: { modalities: ['text'] } }));
    await done;
    socket.close();
    const calls = (await callSpans('/v1/realtime', before + 1)).slice(before);
    expect(calls).toHaveLength(1);
    const { call, children } = calls[0]!;
    expect([call.traceId, call.parentSpanId]).toEqual([CLIENT_TRACE, CLIENT_SPAN]);
    expect(call.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-realtime', 'gen_ai.provider.name': 'openai', 'gen_ai.usage.input_tokens': 11, 'gen_ai.usage.output_tokens': 6, 'gateway.key.name': 'sol-key' });
    expect(children.map((span) => [span.kind, span.attributes['gen_ai.request.model'], span.attributes['gateway.channel']])).toEqual([[CLIENT, 'gpt-realtime-2025-08-28', 'rt']]);
  });

  it('starts a trace of its own for a response when the upgrade carried no traceparent', async () => {
    const before = (await callSpans('/v1/realtime', 0)).length;
    const { socket, next } = await open('/v1/realtime?model=gpt-realtime', { 'openai-beta': 'realtime=v1' });
    await next('session.created');
    const done = next('response.done');
    socket.send(JSON.stringify({ type: 'response.create', response: { modalities: ['text'] } }));
    await done;
    socket.close();
    const { call } = (await callSpans('/v1/realtime', before + 1)).at(-1)!;
    expect(call.traceId).not.toBe(CLIENT_TRACE);
    expect(call.parentSpanId ?? '').toBe('');
  });
});
