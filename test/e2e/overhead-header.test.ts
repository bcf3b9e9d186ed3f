// The gateway's own time on every answer (issue 33): `x-gateway-overhead-ms` on each endpoint family,
// whole and streamed, the same number in the usage row (overhead_us) and in gateway_overhead_seconds; and
// the upstream's time is not in it (an upstream that takes a second still leaves the overhead below it).
import OpenAI, { toFile } from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startRerankSimulator } from '../simulators/rerank-simulator.ts';
import type { Simulator } from '../simulators/simulator-core.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('overheadheader');
let openai: OpenAISimulator;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let rerank: Simulator;
let gateway: TestGateway;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  gemini = await startGeminiSimulator({ apiKey: 'up-gemini' });
  rerank = await startRerankSimulator({ apiKey: 'sk-rerank' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-up-openai', models: ['gpt-4o-mini', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'dall-e-2', 'tts-1', 'whisper-1'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'up-gemini', models: ['gemini-2.5-flash'] },
      { name: 'jina', type: 'jina', base_url: rerank.url, api_key: 'sk-rerank', models: ['jina-reranker-v2'] },
    ],
    models: [
      { id: 'gpt-4o-mini', input_per_mtok: 0.15, output_per_mtok: 0.6 },
      { id: 'gpt-3.5-turbo-instruct', input_per_mtok: 1.5, output_per_mtok: 2 },
      { id: 'text-embedding-3-small', input_per_mtok: 0.02 },
      { id: 'dall-e-2', per_image: { '1024x1024': 0.02 } },
      { id: 'tts-1', per_mchars: 15 },
      { id: 'whisper-1', per_audio_minute: 0.006 },
      { id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 },
      { id: 'gemini-2.5-flash', input_per_mtok: 0.3, output_per_mtok: 2.5 },
      { id: 'jina-reranker-v2', per_request: 0.001 },
    ],
    users: [{ name: 'ora', balance: 50 }],
    keys: [{ name: 'ora', key: KEY, user: 'ora' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openai?.close();
  await anthropic?.close();
  await gemini?.close();
  await rerank?.close();
});

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

const openaiClient = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

/**
 * The header is a number of milliseconds (to the microsecond) no larger than the whole call took, and the
 * call's usage row holds the same time in microseconds.
 */
async function expectOverhead(headers: Headers, elapsedMs: number): Promise<number> {
  const text = headers.get('x-gateway-overhead-ms');
  expect(text).toMatch(/^\d+(\.\d{1,3})?$/);
  const overhead = Number(text);
  expect(overhead).toBeLessThanOrEqual(elapsedMs);
  await gateway.recorder.flush();
  const row = await gateway.database.db.selectFrom('usage_logs').select(['overhead_us', 'latency_ms']).where('request_id', '=', headers.get('x-request-id')!).executeTakeFirstOrThrow();
  expect(row.overhead_us).toBe(Math.round(overhead * 1000));
  return overhead;
}

async function rowOf(headers: Headers): Promise<{ latency_ms: number; ttft_ms: number | null }> {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').select(['latency_ms', 'ttft_ms']).where('request_id', '=', headers.get('x-request-id')!).executeTakeFirstOrThrow();
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; elapsedMs: number }> {
  const started = performance.now();
  const value = await run();
  return { value, elapsedMs: performance.now() - started };
}

describe('x-gateway-overhead-ms on every endpoint family', () => {
  it('chat completions, whole and streamed', async () => {
    const whole = await timed(() => openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse());
    await expectOverhead(whole.value.response.headers, whole.elapsedMs);
    const streamed = await timed(async () => {
      const { data, response } = await openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true }).withResponse();
      for await (const chunk of data) void chunk;
      return response;
    });
    await expectOverhead(streamed.value.headers, streamed.elapsedMs);
  });

  it('completions', async () => {
    const call = await timed(() => openaiClient().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Once' }).withResponse());
    await expectOverhead(call.value.response.headers, call.elapsedMs);
  });

  it('embeddings', async () => {
    const call = await timed(() => openaiClient().embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }).withResponse());
    await expectOverhead(call.value.response.headers, call.elapsedMs);
  });

  it('images', async () => {
    const call = await timed(() => openaiClient().images.generate({ model: 'dall-e-2', prompt: 'a lighthouse', size: '1024x1024' }).withResponse());
    await expectOverhead(call.value.response.headers, call.elapsedMs);
  });

  it('audio: speech (bytes passed through) and transcriptions (an upload)', async () => {
    const speech = await timed(async () => {
      const response = await openaiClient().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there.' });
      await response.arrayBuffer();
      return response;
    });
    await expectOverhead(speech.value.headers, speech.elapsedMs);
    const file = await toFile(Buffer.from('RIFF----WAVEfmt ' + 'a'.repeat(200)), 'speech.wav', { type: 'audio/wav' });
    const transcription = await timed(() => openaiClient().audio.transcriptions.create({ model: 'whisper-1', file }).withResponse());
    await expectOverhead(transcription.value.response.headers, transcription.elapsedMs);
  });

  it('rerank', async () => {
    const call = await timed(() => fetch(`${gateway.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'jina-reranker-v2', query: 'apples', documents: ['bananas', 'apples'] }),
    }));
    expect(call.value.status).toBe(200);
    await expectOverhead(call.value.headers, call.elapsedMs);
  });

  it('responses, whole and streamed', async () => {
    const whole = await timed(() => openaiClient().responses.create({ model: 'gpt-4o-mini', input: 'hi' }).withResponse());
    await expectOverhead(whole.value.response.headers, whole.elapsedMs);
    const streamed = await timed(async () => {
      const { data, response } = await openaiClient().responses.create({ model: 'gpt-4o-mini', input: 'hi', stream: true }).withResponse();
      for await (const event of data) void event;
      return response;
    });
    await expectOverhead(streamed.value.headers, streamed.elapsedMs);
  });

  it('messages, same format and translated, streamed', async () => {
    const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const same = await timed(() => client.messages.create({ model: 'claude-up', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).withResponse());
    await expectOverhead(same.value.response.headers, same.elapsedMs);
    const translated = await timed(async () => {
      const { data, response } = await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      for await (const event of data) void event;
      return response;
    });
    await expectOverhead(translated.value.headers, translated.elapsedMs);
  });

  it('gemini generateContent and streamGenerateContent', async () => {
    const call = (method: string) => timed(async () => {
      const response = await fetch(`${gateway.url}/v1beta/models/gemini-2.5-flash:${method}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      await response.text();
      return response;
    });
    const whole = await call('generateContent');
    expect(whole.value.status).toBe(200);
    await expectOverhead(whole.value.headers, whole.elapsedMs);
    const streamed = await call('streamGenerateContent?alt=sse');
    expect(streamed.value.status).toBe(200);
    await expectOverhead(streamed.value.headers, streamed.elapsedMs);
  });

  it('an upstream error answer carries it too', async () => {
    openai.script({ status: 400, body: { error: { message: 'bad thing', type: 'invalid_request_error' } } });
    const failure = await refusal(openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }));
    expect(failure.status).toBe(400);
    await expectOverhead(failure.headers!, 60_000);
  });
});

describe('what the overhead leaves out', () => {
  it('an upstream that takes a second to answer is not the gateway\'s time', async () => {
    openai.script({ delayMs: 1000 });
    const call = await timed(() => openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'slow' }] }).withResponse());
    expect(call.elapsedMs).toBeGreaterThanOrEqual(1000);
    const overhead = await expectOverhead(call.value.response.headers, call.elapsedMs);
    // The second the upstream took is outside the gateway's own time, whatever the machine's load.
    const row = await rowOf(call.value.response.headers);
    expect(overhead).toBeLessThanOrEqual(row.latency_ms - 999);
  });

  it('a stream whose upstream pauses between events: only the time to its first event counts', async () => {
    openai.script({ chunkDelayMs: 200 });
    const call = await timed(async () => {
      const { data, response } = await openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a longer answer please' }], stream: true }).withResponse();
      for await (const chunk of data) void chunk;
      return response;
    });
    expect(call.elapsedMs).toBeGreaterThanOrEqual(400);
    const overhead = await expectOverhead(call.value.headers, call.elapsedMs);
    // Fixed at the first event: the pauses after it (the upstream's streaming) are not in it.
    const row = await rowOf(call.value.headers);
    expect(row.latency_ms - row.ttft_ms!).toBeGreaterThanOrEqual(390);
    expect(overhead).toBeLessThanOrEqual(row.ttft_ms! + 1);
  });

  it('gateway_overhead_seconds counts the calls by route', async () => {
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    const count = (route: string) => Number(new RegExp(`^gateway_overhead_seconds_count\\{endpoint="${route.replace(/[{}]/g, '\\$&')}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    expect(count('/v1/chat/completions')).toBeGreaterThanOrEqual(5);
    expect(count('/v1/embeddings')).toBe(1);
    expect(count('/v1beta/models/{model}:streamGenerateContent')).toBe(1);
  });
});
