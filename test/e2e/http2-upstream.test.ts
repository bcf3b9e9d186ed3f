// A channel with `http2: true` speaks HTTP/2 to its upstream (issue 16, target 4: many upstream streams on
// one connection instead of a socket each). The official openai SDK → the gateway → an h2c simulator (HTTP/2
// with prior knowledge, no TLS): whole answers, streams, a client leaving mid-stream (the upstream stream is
// reset, the call still logged), upstream errors and timeouts, all over real HTTP/2.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { parseConfigText } from '../../src/config/load-config-file.ts';

const UPSTREAM_KEY = 'sk-upstream-h2c-0001';
const KEY = testKey('httptwo');
const hello = [{ role: 'user' as const, content: 'hello over h2' }];
let upstream: OpenAISimulator;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, http2: true });
  gateway = await startTestGateway({
    channels: [
      { name: 'h2c', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o', 'text-embedding-3-small', 'whisper-1', 'tts-1'], http2: true },
      { name: 'h2c-short', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'], http2: true, timeouts: { headers_ms: 300, first_token_ms: 300, idle_ms: 300 } },
    ],
    models: [
      { id: 'gpt-4o', input_per_mtok: 2.5, output_per_mtok: 10 },
      { id: 'gpt-4o-mini', input_per_mtok: 0.15, output_per_mtok: 0.6 },
      { id: 'text-embedding-3-small', input_per_mtok: 0.02 },
      { id: 'whisper-1', per_audio_minute: 0.006 },
      { id: 'tts-1', per_mchars: 15 },
    ],
    users: [
      { name: 'hana', balance: 10 },
      { name: 'boss', email: 'boss@example.com', password: 'boss password 123', role: 'admin' },
    ],
    keys: [{ name: 'main', key: KEY, user: 'hana' }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

async function lastLog() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('a channel with http2: true', () => {
  it('relays a whole answer over HTTP/2 and charges it', async () => {
    upstream.reset();
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: hello });
    expect(completion.choices[0]!.message.content).toBe('Hello from the OpenAI simulator: you said "hello over h2"');
    expect(upstream.requests.map((request) => request.httpVersion)).toEqual(['2.0']);
    const row = await lastLog();
    expect(row).toMatchObject({ status: 200, input_tokens: completion.usage!.prompt_tokens, output_tokens: completion.usage!.completion_tokens });
    expect(row.cost_micros).toBeGreaterThan(0);
  });

  it('relays a stream over HTTP/2, every event in order', async () => {
    upstream.reset();
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Hello from the OpenAI simulator: you said "hello over h2"');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(upstream.requests.at(-1)!.httpVersion).toBe('2.0');
    expect((await lastLog()).output_tokens).toBe(usage!.completion_tokens);
  });

  it('carries many concurrent calls on one upstream connection', async () => {
    const before = upstream.connectionsAccepted;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: `call ${i}` }] })));
    answers.forEach((answer, i) => expect(answer.choices[0]!.message.content).toBe(`Hello from the OpenAI simulator: you said "call ${i}"`));
    // The connection opened by the first test is still there (keep-alive); 20 calls need no other.
    expect(upstream.connectionsAccepted - before).toBe(0);
    expect(upstream.connectionsAccepted).toBeLessThanOrEqual(2);
  });

  it('resets the upstream stream when the client leaves mid-stream, and logs the call', async () => {
    upstream.reset();
    upstream.script({ stallAfterChunks: 2 });
    const connections = upstream.connectionsAccepted;
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true }, { signal: controller.signal });
    for await (const _chunk of stream) {
      controller.abort();
      break;
    }
    await waitFor(() => upstream.requests.at(-1)?.aborted === true);
    expect(upstream.requests.at(-1)).toMatchObject({ httpVersion: '2.0', aborted: true });
    const row = await lastLog();
    expect(row.error).toContain('client disconnected');
    expect(row.output_tokens).toBeGreaterThan(0);
    // Only the stream was reset: the next call reuses the same connection.
    await client.chat.completions.create({ model: 'gpt-4o', messages: hello });
    expect(upstream.connectionsAccepted).toBe(connections);
  });

  it('sends a multipart upload and a JSON body, and relays a binary answer, over HTTP/2', async () => {
    upstream.reset();
    const file = await toFile(Buffer.from('RIFF----WAVEfmt ' + 'a'.repeat(200)), 'speech.wav', { type: 'audio/wav' });
    expect((await client.audio.transcriptions.create({ model: 'whisper-1', file, language: 'en' })).text).toContain('Transcribed speech.wav');
    const embedded = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'], encoding_format: 'float' });
    expect(embedded.data).toHaveLength(2);
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'spoken over h2' });
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(upstream.requests.map((request) => `${request.path} ${request.httpVersion}`)).toEqual(['/v1/audio/transcriptions 2.0', '/v1/embeddings 2.0', '/v1/audio/speech 2.0']);
  });

  it('passes an upstream error through in the caller\'s format', async () => {
    upstream.script({ status: 400, body: { error: { message: 'bad thing over h2', type: 'invalid_request_error', param: 'messages', code: null } } });
    await expect(client.chat.completions.create({ model: 'gpt-4o', messages: hello })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bad thing over h2') });
    expect((await lastLog()).status).toBe(400);
  });

  it('times out an upstream that sends no headers, and ends a stalled stream after the idle limit', async () => {
    upstream.script({ delayMs: 1500 });
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages: hello })).rejects.toMatchObject({ status: 504 });
    expect((await lastLog()).error_code).toBe('GW_ERR_UPSTREAM_TIMEOUT');

    upstream.script({ stallAfterChunks: 2 });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: hello }),
    });
    const text = await response.text();
    expect(text).toContain('data: {"error":');
    expect(text).not.toContain('[DONE]');
    await waitFor(() => upstream.requests.at(-1)?.aborted === true);
    expect(upstream.requests.at(-1)!.aborted).toBe(true);
  });

  it('is shown and set through the admin channel API', async () => {
    const admin = new ApiClient(gateway.url);
    expect((await admin.post('/api/auth/login', { email: 'boss@example.com', password: 'boss password 123' })).status).toBe(200);
    const listed = await admin.get<{ data: { name: string; http2?: boolean }[] }>('/api/admin/channels');
    const byName = Object.fromEntries(listed.body.data.map((channel) => [channel.name, channel]));
    expect(byName.h2c!.http2).toBe(true);
    const created = await admin.post('/api/admin/channels', { name: 'h1', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['other'] });
    expect(created.status).toBe(201);
    expect(created.body.http2).toBeUndefined();
    expect((await admin.patch(`/api/admin/channels/${created.body.id}`, { http2: true })).body.http2).toBe(true);
    expect((await admin.patch(`/api/admin/channels/${created.body.id}`, { http2: 'yes' })).status).toBe(400);
    // Three states: false (HTTP/1.1 only) is kept and shown, a PATCH leaving it out keeps it, null clears it.
    expect((await admin.patch(`/api/admin/channels/${created.body.id}`, { http2: false })).body.http2).toBe(false);
    expect((await admin.patch(`/api/admin/channels/${created.body.id}`, { weight: 2 })).body.http2).toBe(false);
    const cleared = await admin.patch(`/api/admin/channels/${created.body.id}`, { http2: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.http2).toBeUndefined();
    const stored = await gateway.database.db.selectFrom('channels').select('settings_json').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings_json)).not.toHaveProperty('http2');
  });
});

describe('the config file', () => {
  const file = (http2: unknown) => JSON.stringify({ channels: [{ name: 'up', type: 'openai', base_url: 'https://api.openai.com', api_key: 'sk-x', models: ['m'], http2 }] });

  it('stores http2: true in the channel\'s settings, and refuses anything but a boolean by its path', async () => {
    expect(parseConfigText('gateway.json', file(true)).channels[0]!.http2).toBe(true);
    expect(parseConfigText('gateway.json', file(false)).channels[0]!.http2).toBe(false);
    expect(() => parseConfigText('gateway.json', file('yes'))).toThrow(/channels\[0\]\.http2/);
    const row = await gateway.database.db.selectFrom('channels').select('settings_json').where('name', '=', 'h2c').executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings_json)).toMatchObject({ http2: true });
  });
});

describe('https upstreams: HTTP/2 chosen by ALPN', () => {
  let both: OpenAISimulator;
  let http1Only: OpenAISimulator;
  let tlsGateway: TestGateway;
  let tlsClient: OpenAI;
  const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(async () => {
    // The simulators' certificate is self-signed; the gateway's agents verify through Node's default, read
    // at each connection from this variable (this file runs in a process of its own).
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    both = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, tls: true, http2: true });
    http1Only = await startOpenAISimulator({ apiKey: UPSTREAM_KEY, tls: true });
    tlsGateway = await startTestGateway({
      channels: [
        { name: 'tls-h2', type: 'openai', base_url: both.url, api_key: UPSTREAM_KEY, models: ['m-h2'], http2: true },
        { name: 'tls-default', type: 'openai', base_url: both.url, api_key: UPSTREAM_KEY, models: ['m-default'] },
        { name: 'tls-h1-forced', type: 'openai', base_url: both.url, api_key: UPSTREAM_KEY, models: ['m-h1-forced'], http2: false },
        { name: 'tls-h1-only', type: 'openai', base_url: http1Only.url, api_key: UPSTREAM_KEY, models: ['m-h1'], http2: true },
      ],
      models: ['m-h2', 'm-default', 'm-h1', 'm-h1-forced'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 1 })),
      users: [{ name: 'tess', balance: 10 }],
      keys: [{ name: 'main', key: KEY, user: 'tess' }],
    });
    tlsClient = new OpenAI({ baseURL: `${tlsGateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });

  afterAll(async () => {
    await tlsGateway?.dispose();
    await both?.close();
    await http1Only?.close();
    if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
  });

  const streamed = async (model: string) => {
    const stream = await tlsClient.chat.completions.create({ model, messages: hello, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  };

  it('speaks h2 to an https upstream that offers it, and falls back to HTTP/1.1 when it does not', async () => {
    expect(await streamed('m-h2')).toBe('Hello from the OpenAI simulator: you said "hello over h2"');
    expect(both.requests.at(-1)!.httpVersion).toBe('2.0');
    expect(await streamed('m-h1')).toBe('Hello from the OpenAI simulator: you said "hello over h2"');
    expect(http1Only.requests.at(-1)!.httpVersion).toBe('1.1');
  });

  it('without the setting, still lets an https server choose h2 (undici 8 offers it by default)', async () => {
    await tlsClient.chat.completions.create({ model: 'm-default', messages: hello });
    expect(both.requests.at(-1)!.httpVersion).toBe('2.0');
  });

  it('with http2: false, speaks HTTP/1.1 to that same server (ALPN offers http/1.1 alone)', async () => {
    expect(await streamed('m-h1-forced')).toBe('Hello from the OpenAI simulator: you said "hello over h2"');
    expect(both.requests.at(-1)!.httpVersion).toBe('1.1');
    await tlsClient.chat.completions.create({ model: 'm-h1-forced', messages: hello });
    expect(both.requests.at(-1)!.httpVersion).toBe('1.1');
  });
});
