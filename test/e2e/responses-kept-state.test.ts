// Responses state the gateway keeps for channels that have none (Anthropic, Gemini): with `store` on (the
// default) a translated answer is saved for its user, so previous_response_id, item_reference and the
// stored-response endpoints work on every channel type, for their owner only. The official openai SDK as
// the client; the Anthropic and Gemini simulators as upstreams, which see the rebuilt conversation.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ANTHROPIC_KEY = 'sk-ant-upstream-kept';
const GEMINI_KEY = 'gemini-upstream-kept';
const keys = { alice: testKey('alicekept'), alicePhone: testKey('alicekeptphone'), bob: testKey('bobkept') };

let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let openai: OpenAISimulator;

function config() {
  return {
    channels: [
      { name: 'claude', type: 'anthropic', base_url: anthropic.url, api_key: ANTHROPIC_KEY, models: ['claude-x'] },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: GEMINI_KEY, models: ['gemini-x'] },
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-openai-kept', models: ['gpt-x'] },
    ],
    models: [{ id: 'claude-x', free: true }, { id: 'gemini-x', free: true }, { id: 'gpt-x', free: true }],
    users: [{ name: 'alice', balance: 10 }, { name: 'bob', balance: 10 }],
    keys: [
      { name: 'laptop', key: keys.alice, user: 'alice' },
      { name: 'phone', key: keys.alicePhone, user: 'alice' },
      { name: 'laptop', key: keys.bob, user: 'bob' },
    ],
  };
}

beforeAll(async () => {
  anthropic = await startAnthropicSimulator({ apiKey: ANTHROPIC_KEY });
  gemini = await startGeminiSimulator({ apiKey: GEMINI_KEY });
  openai = await startOpenAISimulator({ apiKey: 'sk-openai-kept' });
});

afterAll(async () => {
  await anthropic?.close();
  await gemini?.close();
  await openai?.close();
});

const clientFor = (gateway: { url: string }, key: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });

/** Every `text` in a value, depth first. */
function textsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(textsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([field, inner]) => (field === 'text' && typeof inner === 'string' ? [inner] : textsIn(inner)));
}
/** The conversation's texts the upstream received last, in order. */
const upstreamTexts = () => textsIn((anthropic.requests.at(-1)?.body as { messages?: unknown }).messages);
const geminiTexts = () => textsIn((gemini.requests.at(-1)?.body as { contents?: unknown }).contents);
/** The answer's text (a streamed Response object has no output_text helper). */
const answerText = (response: OpenAI.Responses.Response) => textsIn(response.output).join('');
const stored = (response: OpenAI.Responses.Response) => (response as unknown as { store: boolean }).store;

async function streamed(client: OpenAI, params: Omit<OpenAI.Responses.ResponseCreateParamsStreaming, 'stream'>): Promise<OpenAI.Responses.Response> {
  const stream = await client.responses.create({ ...params, stream: true });
  let done: OpenAI.Responses.Response | undefined;
  for await (const event of stream) if (event.type === 'response.completed') done = event.response;
  if (!done) throw new Error('the stream ended without response.completed');
  return done;
}

describe.each([
  { channel: 'Anthropic', model: 'claude-x', texts: upstreamTexts },
  { channel: 'Gemini', model: 'gemini-x', texts: geminiTexts },
])('kept by the gateway, through a $channel channel', ({ model, texts }) => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway(config());
  });
  afterAll(async () => {
    await gateway?.dispose();
  });

  it.each([false, true])('continues with previous_response_id (streamed: %s), rebuilding the conversation for the upstream', async (stream) => {
    const alice = clientFor(gateway, keys.alice);
    const create = (params: Omit<OpenAI.Responses.ResponseCreateParamsStreaming, 'stream'>) => (stream ? streamed(alice, params) : alice.responses.create(params));
    const first = await create({ model, input: 'first turn', instructions: 'Be brief.' });
    expect(first.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(stored(first)).toBe(true);
    const second = await create({ model, input: 'second turn', previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    expect(texts()).toEqual(['first turn', answerText(first), 'second turn']);
    // From another key of the same user, and a third link in the chain.
    const third = await clientFor(gateway, keys.alicePhone).responses.create({ model, input: [{ role: 'user', content: 'third turn' }], previous_response_id: second.id });
    expect(third.output_text).toContain('third turn');
    expect(texts()).toEqual(['first turn', answerText(first), 'second turn', answerText(second), 'third turn']);
    // What GET answers is the Response the client received, streamed or not.
    const retrieved = await alice.responses.retrieve(second.id);
    expect({ id: retrieved.id, output: retrieved.output, previous: retrieved.previous_response_id }).toEqual({ id: second.id, output: second.output, previous: first.id });
    const items = await alice.responses.inputItems.list(second.id);
    expect(items.data.map((item) => textsIn(item))).toEqual([['second turn']]);
  });

  it('serves GET, input_items (paged) and DELETE from its store, for the owner only', async () => {
    const alice = clientFor(gateway, keys.alice);
    const bob = clientFor(gateway, keys.bob);
    const first = await alice.responses.create({ model, input: [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' }] });

    const retrieved = await alice.responses.retrieve(first.id);
    expect(retrieved).toEqual(first);
    const all = await alice.responses.inputItems.list(first.id, { order: 'asc' });
    expect(all.data.map((item) => ((item as { content: { text: string }[] }).content[0]!.text))).toEqual(['one', 'two', 'three']);
    expect(all.data.every((item) => typeof item.id === 'string' && item.type === 'message')).toBe(true);
    const newestFirst = await alice.responses.inputItems.list(first.id, { limit: 2 });
    expect(newestFirst.data.map((item) => ((item as { content: { text: string }[] }).content[0]!.text))).toEqual(['three', 'two']);
    expect(newestFirst.has_more).toBe(true);
    const rest = await alice.responses.inputItems.list(first.id, { limit: 2, after: newestFirst.data[1]!.id });
    expect(rest.data.map((item) => ((item as { content: { text: string }[] }).content[0]!.text))).toEqual(['one']);
    expect(rest.has_more).toBe(false);

    await expect(bob.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.inputItems.list(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.delete(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.create({ model, input: 'x', previous_response_id: first.id })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    await expect(alice.responses.cancel(first.id)).rejects.toMatchObject({ status: 400 });

    await alice.responses.delete(first.id);
    await expect(alice.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(alice.responses.create({ model, input: 'x', previous_response_id: first.id })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    const items = await gateway.database.db.selectFrom('response_items').select('item_id').where('response_id', '=', first.id).execute();
    expect(items).toEqual([]);
  });

  it("resolves item_reference to the user's own kept items, and answers another user's like an unknown one", async () => {
    const alice = clientFor(gateway, keys.alice);
    const first = await alice.responses.create({ model, input: 'remember me' });
    const answer = first.output[0]!;
    await alice.responses.create({ model, input: [{ role: 'user', content: 'remember me' }, { type: 'item_reference', id: answer.id! }, { role: 'user', content: 'and now?' }] });
    expect(texts()).toEqual(['remember me', answerText(first), 'and now?']);

    const calls = anthropic.requests.length + gemini.requests.length;
    const stolen = await clientFor(gateway, keys.bob).responses.create({ model, input: [{ type: 'item_reference', id: answer.id! }] }).catch((error: unknown) => error);
    expect(stolen).toMatchObject({ status: 404, code: 'item_not_found', param: 'input[0]' });
    expect((stolen as Error).message).toBe(`404 Item with id '${answer.id!}' not found.`);
    await expect(alice.responses.create({ model, input: [{ type: 'item_reference', id: 'msg_never_issued' }] })).rejects.toMatchObject({ status: 404, code: 'item_not_found' });
    expect(anthropic.requests.length + gemini.requests.length).toBe(calls);
  });

  it('continues a kept conversation on an OpenAI-type channel, sent there whole', async () => {
    const alice = clientFor(gateway, keys.alice);
    const first = await alice.responses.create({ model, input: 'started elsewhere' });
    const second = await alice.responses.create({ model: 'gpt-x', input: 'finished on OpenAI', previous_response_id: first.id });
    expect(second.id).toMatch(/^resp_sim/);
    const sent = openai.requests.at(-1)!.body as { previous_response_id?: string; input: Record<string, unknown>[] };
    expect(sent.previous_response_id).toBeUndefined();
    expect(textsIn(sent.input)).toEqual(['started elsewhere', answerText(first), 'finished on OpenAI']);
    // The gateway's own item ids mean nothing to OpenAI.
    expect(sent.input.slice(0, 2).every((item) => item.id === undefined)).toBe(true);
  });

  it('keeps nothing with store: false', async () => {
    const alice = clientFor(gateway, keys.alice);
    const unkept = await alice.responses.create({ model, input: 'forget me', store: false });
    expect(stored(unkept)).toBe(false);
    await expect(alice.responses.retrieve(unkept.id)).rejects.toMatchObject({ status: 404 });
    await expect(alice.responses.create({ model, input: 'x', previous_response_id: unkept.id })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    const rows = await gateway.database.db.selectFrom('responses').select('id').where('id', '=', unkept.id).execute();
    expect(rows).toEqual([]);
  });
});

describe('kept responses across instances (PostgreSQL and Redis)', () => {
  let postgres: TestPostgres;
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    postgres = await createTestPostgres();
    const prefix = testRedisPrefix();
    a = await startTestGateway(config(), { env: { DATABASE_URL: postgres.url, REDIS_URL: REDIS_URL, REDIS_PREFIX: prefix, FLUSH_INTERVAL_MS: '5000' } });
    b = await startTestGateway(config(), { env: { DATABASE_URL: postgres.url, REDIS_URL: REDIS_URL, REDIS_PREFIX: prefix } });
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    await postgres?.drop();
  });

  it.each([false, true])('continues on B at once a conversation A answered (streamed: %s)', async (stream) => {
    const onA = clientFor(a, keys.alice);
    const first = stream ? await streamed(onA, { model: 'claude-x', input: 'asked on A' }) : await onA.responses.create({ model: 'claude-x', input: 'asked on A' });
    const second = await clientFor(b, keys.alice).responses.create({ model: 'claude-x', input: 'asked on B', previous_response_id: first.id });
    expect(answerText(second)).toContain('asked on B');
    expect(upstreamTexts()).toEqual(['asked on A', answerText(first), 'asked on B']);
    await expect(clientFor(b, keys.bob).responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    expect((await clientFor(b, keys.alice).responses.retrieve(second.id)).previous_response_id).toBe(first.id);
  });

  it('answers 404 on A for a response deleted on B, although A remembers its owner', async () => {
    const first = await clientFor(a, keys.alice).responses.create({ model: 'claude-x', input: 'delete me elsewhere' });
    await clientFor(b, keys.alice).responses.delete(first.id);
    await expect(clientFor(a, keys.alice).responses.create({ model: 'claude-x', input: 'x', previous_response_id: first.id })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    await expect(clientFor(a, keys.alice).responses.retrieve(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
  });
});
