// Proves the OpenAI simulator speaks OpenAI's wire format: the official SDK is pointed straight at it.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from './openai-simulator.ts';
import { simulatedEmbedding } from './simulator-answers.ts';
import { ResponsesWS } from 'openai/resources/responses/ws';
import WebSocket from 'ws';

const API_KEY = 'sk-sim-openai';
let sim: OpenAISimulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await startOpenAISimulator();
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: API_KEY, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

describe('chat completions', () => {
  it('answers a non-streamed request with a chat.completion', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi there' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Hello from the OpenAI simulator: you said "hi there"', refusal: null });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    // 3 + (3 + 2) + (3 + 2) prompt tokens; 9 words answered.
    expect(completion.usage).toMatchObject({ prompt_tokens: 13, completion_tokens: 9, total_tokens: 22 });
    expect(sim.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'gpt-4o-mini' } });
    expect(sim.requests.at(-1)!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('streams chunks the SDK stream helper assembles, with a usage chunk last', async () => {
    const stream = client.chat.completions.stream({ model: 'gpt-4o', stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'stream please' }] });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Hello from the OpenAI simulator: you said "stream please"');
    expect(final.choices[0]!.finish_reason).toBe('stop');
    expect(final.model).toBe('gpt-4o');
    expect(final.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 9, total_tokens: 17 });
    expect(deltas.length).toBeGreaterThan(3);
  });

  it('sends role first, finish_reason, then choices: [] with usage, then [DONE]', async () => {
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice('data: '.length)));
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 7, completion_tokens: 8 } });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('leaves usage out of a stream without stream_options.include_usage', async () => {
    const stream = await client.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    let text = '';
    for await (const chunk of stream) {
      expect(chunk.usage).toBeUndefined();
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('Hello from the OpenAI simulator: you said "x"');
  });

  it('cuts at a stop sequence and at max_tokens (finish_reason length)', async () => {
    const stopped = await client.chat.completions.create({ model: 'm', stop: ['simulator'], messages: [{ role: 'user', content: 'x' }] });
    expect(stopped.choices[0]!.message.content).toBe('Hello from the OpenAI ');
    expect(stopped.choices[0]!.finish_reason).toBe('stop');
    const cut = await client.chat.completions.create({ model: 'm', max_completion_tokens: 3, messages: [{ role: 'user', content: 'x' }] });
    expect(cut.choices[0]!.message.content).toBe('Hello from the');
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(cut.usage!.completion_tokens).toBe(3);
  });

  it('answers n choices, each cut by max_tokens, with completion_tokens over all of them', async () => {
    const completion = await client.chat.completions.create({ model: 'm', n: 3, max_tokens: 3, messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    for (const choice of completion.choices) expect(choice).toMatchObject({ message: { content: 'Hello from the' }, finish_reason: 'length' });
    expect(completion.usage).toMatchObject({ completion_tokens: 9, total_tokens: completion.usage!.prompt_tokens + 9 });
    const uncut = await client.chat.completions.create({ model: 'm', n: 2, max_completion_tokens: 100, messages: [{ role: 'user', content: 'x' }] });
    expect(uncut.choices.map((choice) => [choice.index, choice.finish_reason])).toEqual([[0, 'stop'], [1, 'stop']]);
    expect(uncut.usage!.completion_tokens).toBe(2 * 8);
  });

  it('streams n choices, each chunk naming its choice by index, which the SDK helper assembles into n answers', async () => {
    const stream = client.chat.completions.stream({ model: 'm', n: 3, max_tokens: 4, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] });
    const byIndex = new Map<number, string>();
    for await (const chunk of stream) {
      // OpenAI's chunks carry one choice each.
      expect(chunk.choices.length).toBeLessThanOrEqual(1);
      const choice = chunk.choices[0];
      if (choice) byIndex.set(choice.index, (byIndex.get(choice.index) ?? '') + (choice.delta.content ?? ''));
    }
    expect([...byIndex.entries()].sort()).toEqual([[0, 'Hello from the OpenAI'], [1, 'Hello from the OpenAI'], [2, 'Hello from the OpenAI']]);
    const final = await stream.finalChatCompletion();
    expect(final.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([0, 1, 2].map((index) => [index, 'Hello from the OpenAI', 'length']));
    expect(final.usage!.completion_tokens).toBe(3 * 4);
  });

  it('refuses an n outside 1 to 128 as OpenAI does', async () => {
    await expect(client.chat.completions.create({ model: 'm', n: 129, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 400, param: 'n', code: 'integer_above_max_value' });
    await expect(client.chat.completions.create({ model: 'm', n: 0, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 400, param: 'n', code: 'integer_below_min_value' });
  });
});

describe('tool calls', () => {
  it('answers a weather question with parallel tool_calls, then uses the tool results', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
    const first = await client.chat.completions.create({ model: 'gpt-4o', tools: [weatherTool], messages });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const calls = choice.message.tool_calls!;
    expect(calls.map((call) => call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['get_weather', { city: 'Paris' }], ['get_weather', { city: 'Tokyo' }],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    messages.push(choice.message, ...calls.map((call, i) => ({ role: 'tool' as const, tool_call_id: call.id, content: i === 0 ? '18°C, sunny' : '22°C, rain' })));
    const second = await client.chat.completions.create({ model: 'gpt-4o', tools: [weatherTool], messages });
    expect(second.choices[0]!.message.content).toBe('The tool said: 18°C, sunny; 22°C, rain');
    expect(second.choices[0]!.finish_reason).toBe('stop');
  });

  it('streams parallel tool calls the SDK helper assembles', async () => {
    const stream = client.chat.completions.stream({ model: 'gpt-4o', tools: [weatherTool], messages: [{ role: 'user', content: 'weather in Paris, Tokyo and Lima' }] });
    const done: string[] = [];
    stream.on('tool_calls.function.arguments.done', (event) => done.push(event.arguments));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    const calls = final.choices[0]!.message.tool_calls!;
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.type === 'function' && JSON.parse(call.function.arguments).city)).toEqual(['Paris', 'Tokyo', 'Lima']);
    expect(calls.every((call) => call.type === 'function' && call.function.name === 'get_weather')).toBe(true);
    // The SDK invents call_<uuid> for a missing id, so check the simulator's own ids.
    expect(calls.map((call) => call.id)).toEqual(['call_sim_0_paris', 'call_sim_1_tokyo', 'call_sim_2_lima']);
    expect(done).toEqual(['{"city":"Paris"}', '{"city":"Tokyo"}', '{"city":"Lima"}']);
  });

  it('calls the first offered tool, and only when tools are offered', async () => {
    const named = await client.chat.completions.create({ model: 'm', tools: [{ type: 'function', function: { name: 'lookup_forecast' } }], messages: [{ role: 'user', content: 'weather?' }] });
    expect(named.choices[0]!.message.tool_calls?.[0]).toMatchObject({ function: { name: 'lookup_forecast', arguments: '{"city":"Paris"}' } });
    const none = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'weather?' }] });
    expect(none.choices[0]!.message.content).toBe('Hello from the OpenAI simulator: you said "weather?"');
  });

  it('plays a scripted call of a named tool, streamed, then answers from its result', async () => {
    const readTool = { type: 'function' as const, function: { name: 'Read', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } } };
    sim.script({ toolCall: { name: 'Read', arguments: { file_path: '/work/secret.txt' } } });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What does the file say?' }];
    const first = await client.chat.completions.stream({ model: 'gpt-4o', tools: [weatherTool, readTool], messages }).finalChatCompletion();
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]).toEqual(['Read', { file_path: '/work/secret.txt' }]);
    messages.push(first.choices[0]!.message as OpenAI.ChatCompletionMessageParam, { role: 'tool', tool_call_id: call.id, content: 'the secret is 42' });
    const second = await client.chat.completions.create({ model: 'gpt-4o', tools: [weatherTool, readTool], messages });
    expect(second.choices[0]!.message.content).toBe('The tool said: the secret is 42');
  });

  it('plays a scripted call of a named function tool on the Responses API, streamed, then answers from its output', async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'string' } } }, strict: false }];
    sim.script({ toolCall: { name: 'shell', arguments: { command: 'cat secret.txt' } } });
    const first = await client.responses.stream({ model: 'gpt-4o', tools, input: 'What does the file say?' }).finalResponse();
    const found = first.output.find((item) => item.type === 'function_call');
    if (found?.type !== 'function_call') throw new Error(`no function call in ${JSON.stringify(first.output)}`);
    expect([found.name, JSON.parse(found.arguments)]).toEqual(['shell', { command: 'cat secret.txt' }]);
    const call: OpenAI.Responses.ResponseFunctionToolCall = { type: 'function_call', call_id: found.call_id, name: found.name, arguments: found.arguments };
    const second = await client.responses.create({
      model: 'gpt-4o', tools, input: [{ role: 'user', content: 'What does the file say?' }, call, { type: 'function_call_output', call_id: call.call_id, output: 'the secret is 42' }],
    });
    expect(second.output_text).toBe('The tool said: the secret is 42');
  });
});

describe('completions and embeddings', () => {
  it('answers /v1/completions, streamed and not', async () => {
    const completion = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: ['one', 'two'] });
    expect(completion.object).toBe('text_completion');
    expect(completion.choices.map((choice) => [choice.index, choice.text, choice.finish_reason])).toEqual([
      [0, 'Hello from the OpenAI simulator: you said "one"', 'stop'], [1, 'Hello from the OpenAI simulator: you said "two"', 'stop'],
    ]);
    expect(completion.usage).toEqual({ prompt_tokens: 2, completion_tokens: 16, total_tokens: 18 });
    const stream = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'go', max_tokens: 4, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Hello from the OpenAI');
    expect(finish).toBe('length');
    expect(usage).toEqual({ prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 });
  });

  it('returns deterministic embeddings as floats, as base64 the SDK decodes, with dimensions honoured', async () => {
    const floats = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta gamma'], encoding_format: 'float', dimensions: 8 });
    expect(floats.data.map((item) => item.index)).toEqual([0, 1]);
    expect(floats.data[0]!.embedding).toEqual(simulatedEmbedding('alpha', 8));
    expect(floats.data[1]!.embedding).toHaveLength(8);
    expect(floats.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    // Without encoding_format the SDK asks for base64 and decodes the float32 bytes itself.
    const decoded = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'alpha', dimensions: 8 });
    expect(sim.requests.at(-1)!.body).toMatchObject({ encoding_format: 'base64' });
    expect(decoded.data[0]!.embedding).toEqual(simulatedEmbedding('alpha', 8));
    const full = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'alpha', encoding_format: 'float' });
    expect(full.data[0]!.embedding).toHaveLength(3072);
    const norm = Math.hypot(...full.data[0]!.embedding);
    expect(norm).toBeCloseTo(1, 5);
  });
});

describe('models, errors and scripts', () => {
  it('lists models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-4o-mini');
    expect((await client.models.retrieve('gpt-4o')).owned_by).toBe('openai');
  });

  it('refuses a wrong key with the SDK’s AuthenticationError', async () => {
    const wrong = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-wrong-key-123456', maxRetries: 0 });
    const error = await wrong.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).type).toBe('invalid_request_error');
  });

  it('answers 400 for missing messages or model and 404 for unknown paths', async () => {
    const noMessages = await client.chat.completions.create({ model: 'm' } as never).catch((e: unknown) => e);
    expect(noMessages).toBeInstanceOf(OpenAI.BadRequestError);
    expect((noMessages as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages');
    const noModel = await client.chat.completions.create({ messages: [{ role: 'user', content: 'x' }] } as never).catch((e: unknown) => e);
    expect((noModel as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
    const unknown = await fetch(`${sim.url}/v1/nothing`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: 'invalid_request_error', param: null, code: null } });
  });

  it('plays a scripted 429 once, with its Retry-After, then answers normally', async () => {
    sim.script({ status: 429, headers: { 'retry-after': '1' } });
    const error = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('1');
    const after = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(after.choices[0]!.message.content).toContain('you said "x"');
  });

  it('plays scripted replies, omitted usage, cut, malformed and unterminated streams', async () => {
    sim.script({ reply: 'exact words here', omitUsage: true });
    const exact = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(exact.choices[0]!.message.content).toBe('exact words here');
    expect(exact.usage).toBeUndefined();
    const ask = () => client.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).finalChatCompletion();
    sim.script({ cutStreamAfterChunks: 2 });
    await expect(ask()).rejects.toThrow();
    sim.script({ malformedChunkAt: 1 });
    await expect(ask()).rejects.toThrow();
    sim.script({ omitTerminator: true, firstChunkDelayMs: 5, chunkDelayMs: 1 });
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${API_KEY}` }, body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const text = await response.text();
    expect(text).toContain('"finish_reason":"stop"');
    expect(text).not.toContain('[DONE]');
  });

  it('stalls a stream after n chunks and records that the client went away', async () => {
    sim.script({ stallAfterChunks: 2, delayMs: 10 });
    const controller = new AbortController();
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST', signal: controller.signal, headers: { authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const reader = response.body!.getReader();
    let received = '';
    while ((received.match(/\n\n/g)?.length ?? 0) < 2) received += new TextDecoder().decode((await reader.read()).value);
    const next = await Promise.race([reader.read().then(() => 'data'), new Promise((resolve) => setTimeout(() => resolve('silence'), 150))]);
    expect(next).toBe('silence');
    controller.abort();
    await expect.poll(() => sim.requests.at(-1)?.aborted).toBe(true);
  });

  it('records nothing when recordRequests is false', async () => {
    const quiet = await startOpenAISimulator({ recordRequests: false, apiKey: 'k' });
    try {
      const quietClient = new OpenAI({ baseURL: `${quiet.url}/v1`, apiKey: 'k' });
      await quietClient.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      expect(quiet.requests).toHaveLength(0);
    } finally {
      await quiet.close();
    }
  });
});

describe('the Responses WebSocket mode (GET /v1/responses with Upgrade)', () => {
  /** The events of one response.create, read with the official SDK's ResponsesWS client, up to the turn's end. */
  async function turnEvents(socket: ResponsesWS, body: Record<string, unknown>): Promise<{ type: string; [field: string]: unknown }[]> {
    const events: { type: string; [field: string]: unknown }[] = [];
    const ended = new Promise<void>((resolve) => {
      const onEvent = (event: { type: string }) => {
        events.push(event as never);
        if (['response.completed', 'response.failed', 'error'].includes(event.type)) {
          socket.off('event', onEvent as never);
          resolve();
        }
      };
      socket.on('event', onEvent as never);
    });
    socket.send({ type: 'response.create', ...body } as never);
    await ended;
    return events;
  }

  it('answers several response.create messages on one socket, each event a frame, counted; closing is seen', async () => {
    const { upgrades, turns } = sim.webSocket;
    const socket = new ResponsesWS(client);
    const first = await turnEvents(socket, { model: 'gpt-4o-mini', input: 'first over the socket' });
    expect(first.map((event) => event.type)).toEqual(expect.arrayContaining(['response.created', 'response.output_text.delta', 'response.completed']));
    expect(JSON.stringify(first.at(-1))).toContain('you said \\"first over the socket\\"');
    const second = await turnEvents(socket, { model: 'gpt-4o-mini', input: 'second' });
    expect((second.at(-1) as unknown as { response: { usage: unknown } }).response.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(sim.webSocket).toMatchObject({ upgrades: upgrades + 1, turns: turns + 2, open: 1 });
    expect(sim.webSocket.handshakes.at(-1)!.authorization).toBe(`Bearer ${API_KEY}`);
    // Served by the POST endpoint, marked as socket turns.
    expect(sim.requests.map((request) => request.headers['x-simulator-transport'])).toEqual(['websocket', 'websocket']);
    socket.close();
    await expect.poll(() => sim.webSocket.open).toBe(0);
  });

  it('a refusal is one error event and the socket stays open; `refuse` answers upgrades with 400; dieAfterEvents drops the socket', async () => {
    const socket = new ResponsesWS(client);
    // The SDK also emits an error event as an 'error' (the refusal read below as an event).
    socket.on('error', () => {});
    const refused = await turnEvents(socket, { model: 'gpt-4o', input: 'x', reasoning: { summary: 'auto' } });
    expect(refused).toEqual([expect.objectContaining({ type: 'error', status: 400, error: expect.objectContaining({ param: 'reasoning.summary' }) })]);
    expect(sim.webSocket.open).toBe(1);
    sim.webSocket.dieAfterEvents.push(2);
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'cut' } as never);
    await expect.poll(() => sim.webSocket.open).toBe(0);
    socket.close();
    const before = sim.webSocket.refused;
    const upgrades = sim.webSocket.upgrades;
    sim.webSocket.refuse = true;
    try {
      const refusal = new WebSocket(`${sim.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${API_KEY}` } });
      const status = await new Promise((resolve) => {
        refusal.on('unexpected-response', (_request, response) => resolve(response.statusCode));
        refusal.on('error', () => resolve('error'));
      });
      refusal.terminate();
      expect(status).toBe(400);
      expect(sim.webSocket.refused).toBe(before + 1);
      expect(sim.webSocket.upgrades).toBe(upgrades);
    } finally {
      sim.webSocket.refuse = false;
    }
  });
});
