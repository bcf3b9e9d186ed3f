// OpenTelemetry traces over the real wire: the gateway exports to an in-process OTLP receiver (JSON for
// most cases, protobuf for one), and the official SDKs call it. Checked: the call span and its GenAI
// attributes, admission and attempt child spans, the client's traceparent continued and passed upstream,
// a streamed call, a failover between channels, a fallback model, a hedge, a cut stream restarted or continued
// elsewhere, a translated call, and content capture off by default.
import { createServer, type AddressInfo } from 'node:net';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';

const KEY = testKey('oteltraces');
const BROKE_KEY = testKey('otelbroke');
const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;
const ERROR = 2;

let openai: OpenAISimulator;
let spare: OpenAISimulator;
let anthropic: AnthropicSimulator;
let receiver: OtlpReceiver;
let gateway: TestGateway;
let deadPort: number;

async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function gatewayConfig() {
  return {
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-up-openai', models: ['gpt-up', 'gpt-failover'], model_mapping: { 'gpt-up': 'gpt-4o-mini', 'gpt-failover': 'gpt-4o-mini' }, groups: ['team'] },
      { name: 'down', type: 'openai', base_url: `http://127.0.0.1:${deadPort}`, api_key: 'sk-up-openai', models: ['gpt-failover', 'gpt-fallen'], priority: 1, groups: ['team'] },
      { name: 'slow', type: 'openai', base_url: openai.url, api_key: 'sk-up-openai', models: ['gpt-hedged'], priority: 1, groups: ['team'] },
      { name: 'quick', type: 'openai', base_url: spare.url, api_key: 'sk-up-openai', models: ['gpt-hedged'], groups: ['team'] },
      { name: 'cutter', type: 'openai', base_url: openai.url, api_key: 'sk-up-openai', models: ['gpt-mended', 'gpt-continued'], priority: 1, groups: ['team'] },
      // Continues a trailing assistant message (vLLM's continue_final_message): a cut stream is continued there.
      { name: 'continuer', type: 'openai', base_url: spare.url, api_key: 'sk-up-openai', models: ['gpt-continued'], supports_prefill: true, groups: ['team'] },
      { name: 'mender', type: 'openai', base_url: spare.url, api_key: 'sk-up-openai', models: ['gpt-mended'], groups: ['team'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' }, groups: ['team'] },
    ],
    models: [
      { id: 'gpt-up', input_per_mtok: 1, output_per_mtok: 2 },
      { id: 'gpt-failover', input_per_mtok: 1, output_per_mtok: 2 },
      { id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 },
      { id: 'gpt-hedged', input_per_mtok: 1, output_per_mtok: 2, hedge_after_ms: 150 },
      { id: 'gpt-mended', input_per_mtok: 1, output_per_mtok: 2 },
      { id: 'gpt-continued', input_per_mtok: 1, output_per_mtok: 2 },
      // Only on the dead channel: its fallback model answers.
      { id: 'gpt-fallen', input_per_mtok: 1, output_per_mtok: 2, fallbacks: ['gpt-up'] },
    ],
    groups: [{ name: 'team', ratio: 1 }],
    users: [{ name: 'olly', balance: 10 }, { name: 'penny', balance: 0 }],
    keys: [{ name: 'olly-laptop', key: KEY, user: 'olly', group: 'team' }, { name: 'broke', key: BROKE_KEY, user: 'penny', group: 'team' }],
  };
}

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  spare = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  receiver = await startOtlpReceiver();
  deadPort = await refusedPort();
  gateway = await startTestGateway(gatewayConfig(), {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_SERVICE_NAME: 'gateway-under-test' },
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openai?.close();
  await spare?.close();
  await anthropic?.close();
  await receiver?.close();
});

/** The spans of the call whose server span has this request id: the call span, then its children in start order. */
async function spansOfCall(requestId: string): Promise<{ call: ReceivedSpan; children: ReceivedSpan[] }> {
  const spans = await receiver.waitFor((all) => {
    const call = all.find((span) => span.attributes['gateway.request_id'] === requestId);
    // The call span ends last (with its serving attempt): once it is here, its children are too.
    return call !== undefined;
  });
  const call = spans.find((span) => span.attributes['gateway.request_id'] === requestId)!;
  const children = spans.filter((span) => span.parentSpanId === call.spanId).sort((a, b) => (a.startNanos < b.startNanos ? -1 : 1));
  return { call, children };
}

/** The API error a call fails with (the test fails if it succeeds). */
async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('the call was expected to fail');
}

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

describe('a plain call', () => {
  it('is one server span under the client\'s traceparent, with GenAI attributes, an admission span and an attempt span whose context went upstream', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { data: answer, response } = await client.chat.completions
      .create({ model: 'gpt-up', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 20 }, { headers: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` } })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const { call, children } = await spansOfCall(requestId);

    expect(call.name).toBe('chat gpt-up');
    expect(call.kind).toBe(SERVER);
    expect(call.traceId).toBe(CLIENT_TRACE);
    expect(call.parentSpanId).toBe(CLIENT_SPAN);
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-up',
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.request.stream': false,
      'gen_ai.usage.input_tokens': answer.usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': answer.usage!.completion_tokens,
      'http.response.status_code': 200,
      'http.route': '/v1/chat/completions',
      'gateway.key.name': 'olly-laptop',
      'gateway.key.group': 'team',
      'gateway.cost_micro_usd': Number(response.headers.get('x-gateway-cost')),
      // Read from the passed-through answer by the format's watcher.
      'gen_ai.response.finish_reasons': [answer.choices[0]!.finish_reason],
    });
    expect(call.attributes['gateway.overhead_ms']).toBeGreaterThan(0);
    // Content capture is off unless the operator turns it on: no prompt, no answer.
    expect(Object.keys(call.attributes).filter((name) => name.includes('messages') || name.includes('instructions'))).toEqual([]);
    expect(JSON.stringify(receiver.spans, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).not.toContain('Say hello');

    expect(children.map((span) => [span.name, span.kind])).toEqual([['gateway admission', INTERNAL], ['chat gpt-4o-mini', CLIENT]]);
    const attempt = children[1]!;
    expect(attempt.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'server.address': '127.0.0.1',
      'gateway.channel': 'openai',
      'gateway.attempt.kind': 'first',
      'http.response.status_code': 200,
      'gen_ai.usage.output_tokens': answer.usage!.completion_tokens,
    });
    // The upstream saw the trace continued from the attempt's span.
    expect(openai.requests.at(-1)!.headers.traceparent).toBe(`00-${CLIENT_TRACE}-${attempt.spanId}-01`);
  });

  it('starts a new trace when the client sends none, and answers the same', async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    expect(call.parentSpanId).toBe('');
    expect(call.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(openai.requests.at(-1)!.headers.traceparent).toBe(`00-${call.traceId}-${children[1]!.spanId}-01`);
  });
});

describe('a streamed call', () => {
  it('carries time to first chunk and the streamed usage; the attempt span ends with the stream', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-up', messages: [{ role: 'user', content: 'Stream something' }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    expect(call.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.usage.input_tokens': usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': usage!.completion_tokens,
      'http.response.status_code': 200,
    });
    expect(call.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    const attempt = children.find((span) => span.kind === CLIENT)!;
    expect(attempt.attributes['gen_ai.usage.output_tokens']).toBe(usage!.completion_tokens);
    // The attempt serves the whole stream: it ends with the call, as the answered one (no error on it).
    expect(attempt.endNanos).toBeGreaterThan(attempt.startNanos);
    expect(attempt.status.code).toBe(0);
  });
});

describe('a failover', () => {
  it('shows the refused channel\'s attempt (and its one retry) as errors and the next channel\'s as a failover that answered', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: 'gpt-failover', messages: [{ role: 'user', content: 'hello' }] }).withResponse();
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    const attempts = children.filter((span) => span.kind === CLIENT);
    expect(attempts.map((span) => [span.attributes['gateway.channel'], span.attributes['gateway.attempt.kind'], span.status.code])).toEqual([
      ['down', 'first', ERROR],
      ['down', 'retry', ERROR],
      ['openai', 'failover', 0],
    ]);
    expect(attempts[0]!.attributes['error.type']).toBe('GW_ERR_UPSTREAM_UNREACHABLE');
    expect(call.attributes).toMatchObject({ 'gateway.attempts': 3, 'gen_ai.provider.name': 'openai', 'http.response.status_code': 200 });
    expect(call.status.code).toBe(0);
  });
});

describe('a fallback model', () => {
  it('shows the model\'s failed attempts as errors and the fallback model\'s as a fallback that answered', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: 'gpt-fallen', messages: [{ role: 'user', content: 'fall back' }] }).withResponse();
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    const attempts = children.filter((span) => span.kind === CLIENT);
    expect(attempts.map((span) => [span.attributes['gateway.channel'], span.attributes['gateway.model'], span.attributes['gateway.attempt.kind'], span.status.code])).toEqual([
      ['down', 'gpt-fallen', 'first', ERROR],
      ['down', 'gpt-fallen', 'retry', ERROR],
      ['openai', 'gpt-up', 'fallback', 0],
    ]);
    expect(attempts[0]!.attributes['error.type']).toBe('GW_ERR_UPSTREAM_UNREACHABLE');
    expect(attempts[2]!.name).toBe('chat gpt-4o-mini');
    expect(call.name).toBe('chat gpt-fallen');
    expect(call.attributes).toMatchObject({
      'gen_ai.request.model': 'gpt-fallen', 'gateway.response.model': 'gpt-up', 'gen_ai.response.model': 'gpt-4o-mini', 'gateway.attempts': 3, 'http.response.status_code': 200,
    });
    expect(call.status.code).toBe(0);
    expect(openai.requests.at(-1)!.headers.traceparent).toBe(`00-${call.traceId}-${attempts[2]!.spanId}-01`);
  });
});

describe('a hedge and a stream mended elsewhere', () => {
  it('marks the hedge that answered, and the slow attempt it beat as cancelled', async () => {
    openai.script({ delayMs: 3000 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: 'gpt-hedged', messages: [{ role: 'user', content: 'hedge me' }] }).withResponse();
    const requestId = response.headers.get('x-request-id')!;
    // The beaten attempt ends when the call is decided, beside the call span: wait for both attempts.
    await receiver.waitFor((all) => {
      const call = all.find((span) => span.attributes['gateway.request_id'] === requestId);
      return call !== undefined && all.filter((span) => span.parentSpanId === call.spanId && span.kind === CLIENT).length === 2;
    });
    const { children } = await spansOfCall(requestId);
    const attempts = children.filter((span) => span.kind === CLIENT);
    expect(attempts.map((span) => [span.attributes['gateway.channel'], span.attributes['gateway.attempt.kind'], span.attributes['gateway.attempt.cancelled'] ?? false])).toEqual([
      ['slow', 'first', true],
      ['quick', 'hedge', false],
    ]);
    // The overhead leaves out the upstream waits: the slow attempt waited at least the hedge delay (150 ms)
    // before the hedge began, and that wait is not the gateway's (counting only the winner's would put it in).
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').select(['latency_ms', 'overhead_us']).where('request_id', '=', requestId).executeTakeFirstOrThrow();
    expect(row.overhead_us).toBe(Math.round(Number(response.headers.get('x-gateway-overhead-ms')) * 1000));
    expect(row.overhead_us! / 1000).toBeLessThanOrEqual(row.latency_ms - 149);
  });

  it('marks a stream cut midway and its restart on another channel', async () => {
    openai.script({ cutStreamAfterChunks: 3, chunkDelayMs: 20 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions.create({ model: 'gpt-mended', messages: [{ role: 'user', content: 'mend me' }], stream: true }).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the OpenAI simulator: you said "mend me"');
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    const attempts = children.filter((span) => span.kind === CLIENT);
    expect(attempts.map((span) => [span.attributes['gateway.channel'], span.attributes['gateway.attempt.kind'], span.status.code])).toEqual([
      ['cutter', 'first', ERROR],
      ['mender', 'restart', 0],
    ]);
    expect(attempts[0]!.attributes['error.type']).toBe('GW_ERR_STREAM_CUT');
    expect(call.status.code).toBe(0);
    expect(spare.requests.at(-1)!.headers.traceparent).toBe(`00-${call.traceId}-${attempts[1]!.spanId}-01`);
  });

  it('marks a stream cut midway and its continuation (an assistant prefill) on another channel', async () => {
    openai.script({ cutStreamAfterChunks: 3, chunkDelayMs: 20 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions.create({ model: 'gpt-continued', messages: [{ role: 'user', content: 'continue me' }], stream: true }).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the OpenAI simulator: you said "continue me"');
    const continued = spare.requests.at(-1)!.body as { continue_final_message?: boolean; messages: { role: string }[] };
    expect(continued.continue_final_message).toBe(true);
    expect(continued.messages.at(-1)!.role).toBe('assistant');
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    const attempts = children.filter((span) => span.kind === CLIENT);
    expect(attempts.map((span) => [span.attributes['gateway.channel'], span.attributes['gateway.attempt.kind'], span.status.code])).toEqual([
      ['cutter', 'first', ERROR],
      ['continuer', 'continuation', 0],
    ]);
    expect(attempts[0]!.attributes['error.type']).toBe('GW_ERR_STREAM_CUT');
    expect(call.attributes).toMatchObject({ 'gateway.attempts': 2, 'http.response.status_code': 200 });
    expect(call.status.code).toBe(0);
    expect(spare.requests.at(-1)!.headers.traceparent).toBe(`00-${call.traceId}-${attempts[1]!.spanId}-01`);
  });
});

describe('a translated call', () => {
  it('an Anthropic Messages client on an OpenAI channel: the call is the client\'s, the attempt the channel\'s', async () => {
    const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const { data: message, response } = await client.messages.create({ model: 'gpt-up', max_tokens: 50, messages: [{ role: 'user', content: 'Translate me' }] }).withResponse();
    const { call, children } = await spansOfCall(response.headers.get('x-request-id')!);
    expect(call.attributes).toMatchObject({
      'http.route': '/v1/messages',
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': message.usage.input_tokens,
      'gen_ai.usage.output_tokens': message.usage.output_tokens,
    });
    const attempt = children.find((span) => span.kind === CLIENT)!;
    expect(attempt.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gateway.channel': 'openai' });
  });

  it('an OpenAI client on an Anthropic channel, refused upstream: the attempt and the call carry the error', async () => {
    anthropic.script({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } } });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const failure = await refusal(client.chat.completions.create({ model: 'claude-up', messages: [{ role: 'user', content: 'x' }] }));
    expect(failure.status).toBe(400);
    const { call, children } = await spansOfCall(failure.headers!.get('x-request-id')!);
    expect(call.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'http.response.status_code': 400, 'error.type': 'GW_ERR_UPSTREAM_STATUS' });
    const attempt = children.find((span) => span.kind === CLIENT)!;
    expect(attempt.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-4-6', 'http.response.status_code': 400 });
    expect(attempt.status.code).toBe(ERROR);
  });
});

describe('admission', () => {
  it('a call admission refuses (an empty wallet: 429 insufficient_quota) ends its span with the refusal, and no attempt is made', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: BROKE_KEY, maxRetries: 0 });
    const failure = await refusal(client.chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'x' }] }));
    expect(failure.status).toBe(429);
    const { call, children } = await spansOfCall(failure.headers!.get('x-request-id')!);
    expect(call.attributes).toMatchObject({ 'http.response.status_code': 429, 'gateway.key.name': 'broke' });
    expect(typeof call.attributes['error.type']).toBe('string');
    expect(children.map((span) => [span.name, span.status.code])).toEqual([['gateway admission', ERROR]]);
  });
});
