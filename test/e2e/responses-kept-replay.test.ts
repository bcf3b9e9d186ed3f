// GET /v1/responses/{id}?stream=true on a response the gateway keeps: the stored response replayed as its
// event stream, as OpenAI does, read by the official openai SDK (retrieve with stream: true, and the SDK's
// own accumulator responses.stream({ response_id }), which checks the order of the events), with
// starting_after for a client that reconnects.
import OpenAI from 'openai';
import { openReasoning } from '../../src/formats/openai-responses/openai-responses-reasoning-seal.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const keys = { alice: testKey('alicereplay'), bob: testKey('bobreplay') };
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-ant-replay' });
  gemini = await startGeminiSimulator({ apiKey: 'gemini-replay' });
  gateway = await startTestGateway({
    channels: [
      { name: 'claude', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-ant-replay', models: ['claude-x'] },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'gemini-replay', models: ['gemini-x'] },
    ],
    models: [{ id: 'claude-x', free: true }, { id: 'gemini-x', free: true }],
    users: [{ name: 'alice', balance: 10 }, { name: 'bob', balance: 10 }],
    keys: [{ name: 'a', key: keys.alice, user: 'alice' }, { name: 'b', key: keys.bob, user: 'bob' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropic?.close();
  await gemini?.close();
});

const clientFor = (key: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });
const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false };

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The event types without deltas: how many deltas a text came in differs between the upstream and a replay. */
const shape = (events: StreamEvent[]) => events.map((event) => event.type).filter((type) => !type.endsWith('.delta'));

describe.each([
  { channel: 'Anthropic', model: 'claude-x' },
  { channel: 'Gemini', model: 'gemini-x' },
])('a kept response from a $channel channel, retrieved with stream: true', ({ model }) => {
  it('replays the events the client saw when it was created: same order, same final response', async () => {
    const alice = clientFor(keys.alice);
    const created = await collect(await alice.responses.create({ model, input: 'weather in Paris and Tokyo', tools: [weatherTool], stream: true }));
    const createdFinal = created.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(createdFinal.type).toBe('response.completed');
    const id = createdFinal.response.id;
    expect(createdFinal.response.output.filter((item) => item.type === 'function_call')).toHaveLength(2);

    const replayed = await collect(await alice.responses.retrieve(id, { stream: true }));
    expect(shape(replayed)).toEqual(shape(created));
    expect(replayed.map((event) => event.sequence_number)).toEqual(replayed.map((_, i) => i));
    const final = replayed.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(final.response).toEqual(createdFinal.response);
    // The same object GET answers (the SDK adds output_text to that one).
    const { output_text: _helper, ...retrieved } = await alice.responses.retrieve(id);
    expect(final.response).toEqual(retrieved);
    // Each argument string arrives as deltas that add up to what the item holds.
    const args = replayed.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta).join('');
    expect(args).toBe(final.response.output.filter((item) => item.type === 'function_call').map((item) => item.arguments).join(''));
  });

  it('is read by the SDK’s own accumulator (responses.stream with response_id), text and all', async () => {
    const alice = clientFor(keys.alice);
    const created = await alice.responses.create({ model, input: 'say something' });
    expect(created.output_text).toContain('say something');
    const runner = alice.responses.stream({ response_id: created.id });
    let text = '';
    runner.on('response.output_text.delta', (event) => {
      text += event.delta;
    });
    const final = await runner.finalResponse();
    expect(text).toBe(created.output_text);
    expect(final.output_text).toBe(created.output_text);
    expect(final.id).toBe(created.id);
  });

  it('resumes after starting_after, and refuses a starting_after that is not a sequence number', async () => {
    const alice = clientFor(keys.alice);
    const created = await alice.responses.create({ model, input: 'resume me' });
    const all = await collect(await alice.responses.retrieve(created.id, { stream: true }));
    const rest = await collect(await alice.responses.retrieve(created.id, { stream: true, starting_after: 2 }));
    expect(rest).toEqual(all.slice(3));
    expect(rest[0]?.sequence_number).toBe(3);
    const bad = await fetch(`${gateway.url}/v1/responses/${created.id}?stream=true&starting_after=soon`, { headers: { authorization: `Bearer ${keys.alice}` } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: 'invalid_request_error', param: 'starting_after', code: 'invalid_value' });
  });

  it('answers another user’s id with the 404 an unknown id gets', async () => {
    const created = await clientFor(keys.alice).responses.create({ model, input: 'mine' });
    await expect(clientFor(keys.bob).responses.retrieve(created.id, { stream: true })).rejects.toMatchObject({ status: 404 });
  });
});

describe('include: reasoning.encrypted_content on a kept response (Anthropic thinking)', () => {
  const reasoningOf = (output: readonly unknown[]) => output.find((item) => (item as { type?: string }).type === 'reasoning') as { encrypted_content?: string } | undefined;
  /** The thinking blocks of the conversation the Anthropic upstream received last. */
  const upstreamThinking = () => ((anthropic.requests.at(-1)?.body as { messages: { content: unknown }[] }).messages)
    .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .filter((block) => (block as { type?: string }).type === 'thinking') as { signature?: string }[];

  it.each([false, true])('shows the signature only when asked (streamed: %s), and keeps it for the next turn either way', async (stream) => {
    const alice = clientFor(keys.alice);
    const params = { model: 'claude-x', input: 'think first', reasoning: { effort: 'low' as const } };
    const plain = stream
      ? ((await collect(await alice.responses.create({ ...params, stream: true }))).at(-1) as OpenAI.Responses.ResponseCompletedEvent).response
      : await alice.responses.create(params);
    const plainReasoning = reasoningOf(plain.output);
    expect(plainReasoning).toBeDefined();
    expect(plainReasoning).not.toHaveProperty('encrypted_content');

    const asked = stream
      ? ((await collect(await alice.responses.create({ ...params, include: ['reasoning.encrypted_content'], stream: true }))).at(-1) as OpenAI.Responses.ResponseCompletedEvent).response
      : await alice.responses.create({ ...params, include: ['reasoning.encrypted_content'] });
    expect(reasoningOf(asked.output)?.encrypted_content).toMatch(/\S/);

    // The gateway kept the sealed item: the next turn sends the thinking back with its signature.
    await alice.responses.create({ model: 'claude-x', input: 'and then?', previous_response_id: plain.id, reasoning: { effort: 'low' } });
    const [thinking] = upstreamThinking();
    expect(thinking?.signature).toMatch(/\S/);

    // GET, its stream and input_items follow the same rule, from the query's include.
    expect(reasoningOf((await alice.responses.retrieve(plain.id)).output)).not.toHaveProperty('encrypted_content');
    // Sealed with the gateway's key: the client holds the signature, cannot read it, and it opens to the one sent.
    const sealed = reasoningOf((await alice.responses.retrieve(plain.id, { include: ['reasoning.encrypted_content'] })).output)?.encrypted_content;
    expect(sealed).not.toContain(thinking!.signature);
    expect(openReasoning(sealed!)?.signature).toBe(thinking?.signature);
    const replayed = await collect(await alice.responses.retrieve(plain.id, { stream: true }));
    expect(replayed.some((event) => JSON.stringify(event).includes('encrypted_content'))).toBe(false);
    expect(replayed.map((event) => event.type)).toContain('response.reasoning_summary_text.delta');
    // The SDK's accumulator rebuilds the reasoning item from the replayed events.
    const { output_text: _helper, ...whole } = await alice.responses.retrieve(plain.id);
    const accumulated = await alice.responses.stream({ response_id: plain.id }).finalResponse();
    expect(reasoningOf(accumulated.output)).toEqual(reasoningOf(whole.output));
    expect(reasoningOf(accumulated.output)).toMatchObject({ summary: [{ type: 'summary_text', text: expect.stringMatching(/\S/) }] });
    expect(accumulated.output.map((item) => item.type)).toEqual(whole.output.map((item) => item.type));
  });

  it('refuses an include value OpenAI does not know, naming it', async () => {
    await expect(clientFor(keys.alice).responses.create({ model: 'claude-x', input: 'hi', include: ['reasoning.everything' as 'reasoning.encrypted_content'] }))
      .rejects.toMatchObject({ status: 400, param: expect.stringContaining('include') });
  });
});
