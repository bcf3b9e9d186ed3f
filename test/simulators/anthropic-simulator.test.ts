// Proves the Anthropic simulator speaks Anthropic's wire format: the official SDK is pointed straight at it.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from './anthropic-simulator.ts';
import { thinkingSignature } from './simulator-answers.ts';

const API_KEY = 'sk-ant-sim';
let sim: AnthropicSimulator;
let client: Anthropic;

beforeAll(async () => {
  sim = await startAnthropicSimulator();
  client = new Anthropic({ baseURL: sim.url, apiKey: API_KEY, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const model = 'claude-sonnet-4-6';
const weatherTool: Anthropic.Tool = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('messages', () => {
  it('answers a non-streamed request with a Message', async () => {
    const message = await client.messages.create({ model, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi there' }] });
    expect(message.id).toMatch(/^msg_/);
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model, stop_reason: 'end_turn', stop_sequence: null });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the Anthropic simulator: you said "hi there"', citations: null }]);
    expect(message.usage).toMatchObject({ input_tokens: 4, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    // This SDK version sends the key as a bearer token; x-api-key is checked with fetch below.
    expect(sim.requests.at(-1)!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sim.requests.at(-1)!.headers['anthropic-version']).toBeDefined();
  });

  it('streams the exact event sequence and the SDK helper builds the final message', async () => {
    const stream = client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'stream please' }] });
    const types: string[] = [];
    const texts: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    stream.on('text', (delta) => texts.push(delta));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello from the Anthropic simulator: you said "stream please"', citations: null }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: 2, output_tokens: 9 });
    expect(texts.length).toBeGreaterThan(3);
    expect(types[0]).toBe('message_start');
    expect(types[1]).toBe('content_block_start');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('writes each event as `event: <type>` then `data: <json>`, with a ping after the first block start', async () => {
    const response = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const events = (await response.text()).split('\n\n').filter(Boolean).map((raw) => {
      const [eventLine, dataLine] = raw.split('\n');
      const data = JSON.parse(dataLine!.slice('data: '.length)) as { type: string };
      expect(eventLine).toBe(`event: ${data.type}`);
      return data.type;
    });
    expect(events.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(events.at(-1)).toBe('message_stop');
  });

  it('cuts at a stop sequence and at max_tokens', async () => {
    const stopped = await client.messages.create({ model, max_tokens: 100, stop_sequences: ['simulator'], messages: [{ role: 'user', content: 'x' }] });
    expect(stopped).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'simulator', content: [{ type: 'text', text: 'Hello from the Anthropic ' }] });
    const streamed = await client.messages.stream({ model, max_tokens: 100, stop_sequences: ['simulator'], messages: [{ role: 'user', content: 'x' }] }).finalMessage();
    expect(streamed).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'simulator', content: [{ type: 'text', text: 'Hello from the Anthropic ' }] });
    const cut = await client.messages.create({ model, max_tokens: 2, messages: [{ role: 'user', content: 'x' }] });
    expect(cut).toMatchObject({ stop_reason: 'max_tokens', content: [{ type: 'text', text: 'Hello from' }], usage: { output_tokens: 2 } });
  });

  it('emits a signed thinking block before the text when thinking is enabled', async () => {
    const params = { model, max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, messages: [{ role: 'user' as const, content: 'think' }] };
    const whole = await client.messages.create(params);
    expect(whole.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(whole.content[0]).toEqual({ type: 'thinking', thinking: 'Thinking about "think".', signature: thinkingSignature('Thinking about "think".') });
    const stream = client.messages.stream(params);
    const thinking: string[] = [];
    const signatures: string[] = [];
    stream.on('thinking', (delta) => thinking.push(delta));
    stream.on('signature', (signature) => signatures.push(signature));
    const final = await stream.finalMessage();
    expect(final.content).toEqual(whole.content);
    expect(thinking.join('')).toBe('Thinking about "think".');
    expect(signatures).toEqual([thinkingSignature('Thinking about "think".')]);
    expect(final.usage.output_tokens).toBe(whole.usage.output_tokens);
    const refused = await client.messages.create({ ...params, thinking: { type: 'enabled', budget_tokens: 100 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
  });
});

describe('tool use', () => {
  it('answers a weather question with parallel tool_use blocks, then uses the tool results', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
    const first = await client.messages.create({ model, max_tokens: 100, tools: [weatherTool], messages });
    expect(first.stop_reason).toBe('tool_use');
    const uses = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(uses.map((use) => [use.name, use.input])).toEqual([['get_weather', { city: 'Paris' }], ['get_weather', { city: 'Tokyo' }]]);
    expect(uses.every((use) => use.id.startsWith('toolu_'))).toBe(true);
    messages.push({ role: 'assistant', content: first.content }, {
      role: 'user', content: uses.map((use, i) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: i === 0 ? '18°C, sunny' : [{ type: 'text' as const, text: '22°C, rain' }] })),
    });
    const second = await client.messages.create({ model, max_tokens: 100, tools: [weatherTool], messages });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([{ type: 'text', text: 'The tool said: 18°C, sunny; 22°C, rain', citations: null }]);
  });

  it('streams tool_use input as input_json_delta pieces the SDK helper assembles', async () => {
    const stream = client.messages.stream({ model, max_tokens: 100, tools: [weatherTool], messages: [{ role: 'user', content: 'weather in Paris, Tokyo and Lima' }] });
    const partials: string[] = [];
    stream.on('inputJson', (partial) => partials.push(partial));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.map((block) => block.type === 'tool_use' && [block.name, block.input])).toEqual([
      ['get_weather', { city: 'Paris' }], ['get_weather', { city: 'Tokyo' }], ['get_weather', { city: 'Lima' }],
    ]);
    expect(partials.length).toBeGreaterThanOrEqual(9);
  });

  it('wants the thinking block back before the tool_use it answers while thinking, as Anthropic does', async () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
    const question: Anthropic.MessageParam = { role: 'user', content: 'weather in Paris' };
    const first = await client.messages.create({ model, max_tokens: 2048, thinking, tools: [weatherTool], messages: [question] });
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const use = first.content[1] as Anthropic.ToolUseBlock;
    const result: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C' }] };
    const kept = await client.messages.create({ model, max_tokens: 2048, thinking, tools: [weatherTool], messages: [question, { role: 'assistant', content: first.content }, result] });
    expect(kept.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: 18°C' });
    const dropped = await client.messages.create({ model, max_tokens: 2048, thinking, tools: [weatherTool], messages: [question, { role: 'assistant', content: [use] }, result] }).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(Anthropic.BadRequestError);
    expect((dropped as InstanceType<typeof Anthropic.BadRequestError>).message).toContain('a final `assistant` message must start with a thinking block');
    // Without thinking the same history is fine.
    const plain = await client.messages.create({ model, max_tokens: 2048, tools: [weatherTool], messages: [question, { role: 'assistant', content: [use] }, result] });
    expect(plain.content).toEqual([{ type: 'text', text: 'The tool said: 18°C', citations: null }]);
  });

  it('plays a scripted call of a named tool, streamed, then answers from its result; names the offered tools when it is missing', async () => {
    const readTool: Anthropic.Tool = { name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } };
    sim.script({ toolCall: { name: 'Read', arguments: { file_path: '/work/secret.txt' } } });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What does the file say?' }];
    const first = await client.messages.stream({ model, max_tokens: 100, tools: [weatherTool, readTool], messages }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')!;
    expect([use.name, use.input]).toEqual(['Read', { file_path: '/work/secret.txt' }]);
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'the secret is 42' }] });
    const second = await client.messages.create({ model, max_tokens: 100, tools: [weatherTool, readTool], messages });
    expect(second.content).toEqual([{ type: 'text', text: 'The tool said: the secret is 42', citations: null }]);
    sim.script({ toolCall: { name: 'Read', arguments: {} } });
    const missing = await client.messages.create({ model, max_tokens: 100, tools: [weatherTool], messages: [{ role: 'user', content: 'read it' }] });
    expect(missing.content).toEqual([{ type: 'text', text: 'No tool named "Read" was offered (offered: get_weather)', citations: null }]);
  });
});

describe('hosted web search', () => {
  const webSearch: Anthropic.WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 };
  const found = { url: 'https://example.org/search-the-docs', title: 'About search the docs', answer: 'The web says: search the docs.' };

  it('answers with the server tool\'s call, its result and a cited text, whole and streamed, counting the search', async () => {
    const message = await client.messages.create({ model, max_tokens: 200, tools: [webSearch], messages: [{ role: 'user', content: 'search the docs' }] });
    const [call, result, text] = message.content;
    expect(call).toMatchObject({ type: 'server_tool_use', name: 'web_search', input: { query: 'search the docs' } });
    expect(result).toMatchObject({ type: 'web_search_tool_result', tool_use_id: (call as Anthropic.ServerToolUseBlock).id, content: [{ type: 'web_search_result', url: found.url, title: found.title }] });
    expect(text).toMatchObject({ type: 'text', text: found.answer, citations: [{ type: 'web_search_result_location', url: found.url, title: found.title, cited_text: found.answer }] });
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);

    const streamed = await client.messages.stream({ model, max_tokens: 200, tools: [webSearch], messages: [{ role: 'user', content: 'search the docs' }] }).finalMessage();
    expect(streamed.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(streamed.content[0]).toMatchObject({ input: { query: 'search the docs' } });
    expect(streamed.content[2]).toMatchObject({ text: found.answer, citations: [{ url: found.url }] });
    expect(streamed.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('does not search without the tool, or when the question asks for no search', async () => {
    const plain = await client.messages.create({ model, max_tokens: 200, messages: [{ role: 'user', content: 'search the docs' }] });
    expect(plain.content.map((block) => block.type)).toEqual(['text']);
    const other = await client.messages.create({ model, max_tokens: 200, tools: [webSearch], messages: [{ role: 'user', content: 'hi there' }] });
    expect(other.content.map((block) => block.type)).toEqual(['text']);
  });
});

describe('models, errors and scripts', () => {
  it('lists models in Anthropic’s page shape, following after_id', async () => {
    const ids: string[] = [];
    for await (const info of client.models.list({ limit: 2 })) ids.push(info.id);
    expect(ids).toEqual(['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-haiku-4-5-20251001']);
    const page = await (await fetch(`${sim.url}/v1/models?limit=2`, { headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' } })).json();
    expect(page).toMatchObject({ has_more: true, first_id: 'claude-sonnet-4-6', last_id: 'claude-opus-4-6' });
    expect(page.data[0]).toMatchObject({ type: 'model', display_name: 'Claude Sonnet 4.6' });
    expect(page.data[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('refuses a wrong key with the SDK’s AuthenticationError, accepts x-api-key and Bearer, requires anthropic-version', async () => {
    const wrong = new Anthropic({ baseURL: sim.url, apiKey: 'sk-ant-wrong', maxRetries: 0 });
    const error = await wrong.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const bearer = new Anthropic({ baseURL: sim.url, authToken: API_KEY, apiKey: null, maxRetries: 0 });
    expect((await bearer.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).type).toBe('message');
    const viaHeader = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(viaHeader.status).toBe(200);
    const wrongHeader = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' }, body: '{}' });
    expect(wrongHeader.status).toBe(401);
    const noVersion = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': API_KEY }, body: '{}' });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
  });

  it('answers 400 for a missing max_tokens and 404 for unknown paths', async () => {
    const error = await client.messages.create({ model, messages: [{ role: 'user', content: 'x' }] } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const unknown = await fetch(`${sim.url}/v1/nothing`, { headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('counts tokens', async () => {
    const counted = await client.messages.countTokens({ model, system: 'one two', messages: [{ role: 'user', content: 'three four five' }] });
    expect(counted.input_tokens).toBe(5);
  });

  it('plays a scripted 429 and 529 in Anthropic’s error shape, then answers normally', async () => {
    sim.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 529 });
    const ask = () => client.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    const limited = await ask().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBe('1');
    const overloaded = await ask().catch((e: unknown) => e);
    expect(overloaded).toBeInstanceOf(Anthropic.InternalServerError);
    expect((overloaded as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { type: 'overloaded_error' } });
    expect((await ask()).stop_reason).toBe('end_turn');
  });

  it('plays scripted replies, omitted usage, cut, malformed and unterminated streams', async () => {
    sim.script({ reply: 'exact words' });
    const exact = await client.messages.create({ model, max_tokens: 10, tools: [weatherTool], messages: [{ role: 'user', content: 'weather?' }] });
    expect(exact.content).toEqual([{ type: 'text', text: 'exact words', citations: null }]);
    sim.script({ omitUsage: true });
    expect((await client.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).usage).toBeUndefined();
    const ask = () => client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }).finalMessage();
    sim.script({ cutStreamAfterChunks: 3 });
    await expect(ask()).rejects.toThrow();
    sim.script({ malformedChunkAt: 3 });
    await expect(ask()).rejects.toThrow();
    sim.script({ omitTerminator: true });
    const response = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const text = await response.text();
    expect(text).toContain('event: message_delta');
    expect(text).not.toContain('message_stop');
  });
});
