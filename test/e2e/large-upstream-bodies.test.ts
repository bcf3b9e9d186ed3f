// Upstream answers of 5-20 MiB, whole and streamed, successes and errors: they arrive whole (they used to
// hang past ~4 MiB, the socket paused at 64 queued chunks and never resumed); one over UPSTREAM_BODY_LIMIT
// is a clear 502 after a single upstream attempt, not a retry that buffers it again.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const MiB = 1024 * 1024;
const OPENAI_KEY = 'sk-upstream-large-0001';
const ANTHROPIC_KEY = 'sk-ant-upstream-large-0001';
const key = testKey('largebodies');

let openai: OpenAISimulator;
let anthropic: AnthropicSimulator;
let gateway: TestGateway;
let limited: TestGateway;

const config = () => ({
  channels: [
    { name: 'openai', type: 'openai', base_url: openai.url, api_key: OPENAI_KEY, models: ['gpt-4o', 'text-embedding-3-large'] },
    { name: 'openai-spare', type: 'openai', base_url: openai.url, api_key: OPENAI_KEY, models: ['gpt-4o'], priority: -1 },
    { name: 'claude', type: 'anthropic', base_url: anthropic.url, api_key: ANTHROPIC_KEY, models: ['claude-sonnet-4'] },
  ],
  models: [
    { id: 'gpt-4o', free: true },
    { id: 'text-embedding-3-large', free: true },
    { id: 'claude-sonnet-4', free: true },
  ],
  users: [{ name: 'lara', balance: 100 }],
  keys: [{ name: 'main', key, user: 'lara' }],
});

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: OPENAI_KEY });
  anthropic = await startAnthropicSimulator({ apiKey: ANTHROPIC_KEY });
  gateway = await startTestGateway(config());
  limited = await startTestGateway(config(), { env: { UPSTREAM_BODY_LIMIT: String(8 * MiB) } });
});

afterAll(async () => {
  await gateway?.dispose();
  await limited?.dispose();
  await openai?.close();
  await anthropic?.close();
});

const client = (target: TestGateway = gateway) => new OpenAI({ baseURL: `${target.url}/v1`, apiKey: key, maxRetries: 0, timeout: 60_000 });
/** Text of 64 KiB words: the simulators stream a word per event, so a few hundred events of 64 KiB. */
const longText = (bytes: number) => `${'w'.repeat(64 * 1024 - 1)} `.repeat(Math.ceil(bytes / (64 * 1024))).slice(0, bytes - 1) + 'w';

describe('large whole answers', () => {
  it('relays a 20 MiB non-streamed chat answer whole', async () => {
    const reply = longText(20 * MiB);
    openai.script({ reply });
    const completion = await client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'write a lot' }] });
    expect(completion.choices[0]!.message.content!.length).toBe(reply.length);
  });

  it('relays 65 embeddings of 3,072 floats (about 4.5 MiB of JSON)', async () => {
    const data = Array.from({ length: 65 }, (_, index) => ({ object: 'embedding', index, embedding: Array.from({ length: 3072 }, (_, i) => Math.sin(index * 3072 + i) / 3) }));
    openai.script({ status: 200, body: { object: 'list', data, model: 'text-embedding-3-large', usage: { prompt_tokens: 65, total_tokens: 65 } } });
    const result = await client().embeddings.create({ model: 'text-embedding-3-large', input: Array.from({ length: 65 }, (_, i) => `text ${i}`), encoding_format: 'float' });
    expect(result.data).toHaveLength(65);
    expect(result.data[64]!.embedding).toHaveLength(3072);
  });

  it('translates a 6 MiB non-streamed Anthropic answer for an OpenAI client', async () => {
    const reply = longText(6 * MiB);
    anthropic.script({ reply });
    const completion = await client().chat.completions.create({ model: 'claude-sonnet-4', max_tokens: 1000, messages: [{ role: 'user', content: 'write a lot' }] });
    expect(completion.choices[0]!.message.content!.length).toBe(reply.length);
  });

  it('passes on a 10 MiB upstream error body as the upstream status', async () => {
    openai.script({ status: 400, body: { error: { message: `bad request ${'x'.repeat(10 * MiB)}`, type: 'invalid_request_error', param: null, code: 'bad' } } });
    const failure = await client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('large streamed answers', () => {
  it('streams an 8 MiB answer to the end', async () => {
    const reply = longText(8 * MiB);
    openai.script({ reply });
    const stream = await client().chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'write a lot' }] });
    let received = 0;
    for await (const chunk of stream) received += chunk.choices[0]?.delta.content?.length ?? 0;
    expect(received).toBe(reply.length);
  });
});

describe('UPSTREAM_BODY_LIMIT', () => {
  it('answers 502 upstream_response_too_large for a whole answer over the limit, after one attempt', async () => {
    openai.reset();
    openai.script({ reply: longText(12 * MiB) }, { reply: longText(12 * MiB) });
    const failure = await client(limited).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'too much' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((failure as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_response_too_large');
    expect(openai.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(1);
    openai.reset();
    // The gateway is still fine afterwards.
    const small = await client(limited).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(small.choices[0]!.message.content).toBeTruthy();
  });

  it('still streams an answer larger than the limit (streams are not buffered)', async () => {
    const reply = longText(12 * MiB);
    openai.script({ reply });
    const stream = await client(limited).chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'write a lot' }] });
    let received = 0;
    for await (const chunk of stream) received += chunk.choices[0]?.delta.content?.length ?? 0;
    expect(received).toBe(reply.length);
  });

  it('turns an error body over the limit into the upstream status without buffering it', async () => {
    openai.script({ status: 400, body: { error: { message: 'y'.repeat(12 * MiB), type: 'invalid_request_error', param: null, code: 'bad' } } });
    const failure = await client(limited).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
  });
});
