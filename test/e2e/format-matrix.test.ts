// Every inbound format against every upstream format, streamed and not, with a tool round trip in each
// cell: the official openai, @anthropic-ai/sdk and @google/genai clients → the gateway → OpenAI, Anthropic,
// Gemini and Bedrock (Converse, SigV4-signed) simulators.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI, type Content } from '@google/genai';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';

const KEY = testKey('matrixuser');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let bedrockUpstream: BedrockSimulator;
let gateway: TestGateway;

const upstreams = [
  { name: 'OpenAI upstream', model: 'gpt-up', greeting: 'Hello from the OpenAI simulator' },
  { name: 'Anthropic upstream', model: 'claude-up', greeting: 'Hello from the Anthropic simulator' },
  { name: 'Gemini upstream', model: 'gemini-up', greeting: 'Hello from the Gemini simulator' },
  { name: 'Bedrock upstream', model: 'bedrock-up', greeting: 'Hello from the Bedrock simulator' },
] as const;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  bedrockUpstream = await startBedrockSimulator();
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['gpt-up'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-up'], model_mapping: { 'gemini-up': 'gemini-2.5-flash' } },
      {
        name: 'bedrock', type: 'bedrock', base_url: bedrockUpstream.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`,
        models: ['bedrock-up'], model_mapping: { 'bedrock-up': 'us.anthropic.claude-sonnet-4-20250514-v1:0' },
      },
    ],
    models: [{ id: 'gpt-up', input_per_mtok: 1, output_per_mtok: 2 }, { id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 }, { id: 'gemini-up', input_per_mtok: 0.3, output_per_mtok: 2.5 }, { id: 'bedrock-up', input_per_mtok: 3, output_per_mtok: 15 }],
    users: [{ name: 'mia', balance: 100 }],
    keys: [{ name: 'matrix', key: KEY, user: 'mia' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
  await bedrockUpstream?.close();
});

const weatherTool = { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe.each(upstreams)('openai SDK → $name', ({ model, greeting }) => {
  const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

  it('chats without streaming', async () => {
    const completion = await client().chat.completions.create({ model, max_tokens: 100, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBe(`${greeting}: you said "Hello there"`);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.model).toBe(model);
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
  });

  it('streams', async () => {
    const stream = await client().chat.completions.create({ model, max_tokens: 100, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hello there' }] });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(`${greeting}: you said "Hello there"`);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('makes a round trip with parallel tool calls, streamed', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
    const first = await client().chat.completions.stream({ model, max_tokens: 200, messages, tools: [{ type: 'function', function: weatherTool }] }).finalChatCompletion();
    const calls = first.choices[0]!.message.tool_calls!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(calls.map((call) => call.type === 'function' && JSON.parse(call.function.arguments))).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    messages.push(first.choices[0]!.message as OpenAI.ChatCompletionMessageParam);
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: `sunny in ${call.type === 'function' ? JSON.parse(call.function.arguments).city : ''}` });
    const second = await client().chat.completions.create({ model, max_tokens: 200, messages, tools: [{ type: 'function', function: weatherTool }] });
    expect(second.choices[0]!.message.content).toContain('sunny in Paris');
    expect(second.choices[0]!.message.content).toContain('sunny in Tokyo');
  });
});

describe.each(upstreams)('@anthropic-ai/sdk → $name', ({ model, greeting }) => {
  const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });

  it('sends messages without streaming', async () => {
    const message = await client().messages.create({ model, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: `${greeting}: you said "Hello there"` });
    expect(message.stop_reason).toBe('end_turn');
    // A translated answer names the requested model; a passthrough one the upstream's (mapped) id, as is.
    expect([model, 'claude-sonnet-4-6']).toContain(message.model);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams the exact Anthropic event sequence', async () => {
    const stream = client().messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: `${greeting}: you said "Hello there"` });
    expect(types[0]).toBe('message_start');
    expect(types[1]).toBe('content_block_start');
    expect(types).toContain('content_block_delta');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('makes a round trip with parallel tool use, streamed', async () => {
    const tools: Anthropic.Tool[] = [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
    const first = await client().messages.stream({ model, max_tokens: 200, messages, tools }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const uses = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(uses.map((use) => use.input)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: `sunny in ${(use.input as { city: string }).city}` })) });
    const second = await client().messages.create({ model, max_tokens: 200, messages, tools });
    const text = second.content.find((block) => block.type === 'text');
    expect(text && text.type === 'text' ? text.text : '').toContain('sunny in Tokyo');
  });
});

describe.each(upstreams)('@google/genai → $name', ({ model, greeting }) => {
  const client = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
  const declarations = [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }];

  it('generates content without streaming', async () => {
    const response = await client().models.generateContent({ model, contents: 'Hello there', config: { systemInstruction: 'Be brief.', maxOutputTokens: 100 } });
    expect(response.text).toBe(`${greeting}: you said "Hello there"`);
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
  });

  it('streams', async () => {
    let text = '';
    let usage: number | undefined;
    for await (const chunk of await client().models.generateContentStream({ model, contents: 'Hello there' })) {
      text += chunk.text ?? '';
      usage = chunk.usageMetadata?.candidatesTokenCount ?? usage;
    }
    expect(text).toBe(`${greeting}: you said "Hello there"`);
    expect(usage).toBeGreaterThan(0);
  });

  it('makes a round trip with parallel function calls, streamed', async () => {
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris and Tokyo?' }] }];
    const calls: { name: string; args: Record<string, unknown>; id?: string }[] = [];
    const modelParts: Content['parts'] = [];
    for await (const chunk of await client().models.generateContentStream({ model, contents, config: { tools: [{ functionDeclarations: declarations }] } })) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        modelParts.push(part);
        if (part.functionCall) calls.push({ name: part.functionCall.name!, args: part.functionCall.args ?? {}, ...(part.functionCall.id ? { id: part.functionCall.id } : {}) });
      }
    }
    expect(calls.map((call) => call.args)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    contents.push({ role: 'model', parts: modelParts });
    contents.push({ role: 'user', parts: calls.map((call) => ({ functionResponse: { name: call.name, ...(call.id ? { id: call.id } : {}), response: { result: `sunny in ${String(call.args.city)}` } } })) });
    const second = await client().models.generateContent({ model, contents, config: { tools: [{ functionDeclarations: declarations }] } });
    expect(second.text).toContain('sunny in Paris');
    expect(second.text).toContain('sunny in Tokyo');
  });
});

describe.each(upstreams.filter((upstream) => upstream.model !== 'gpt-up'))('openai SDK Responses API → $name (translated)', ({ model, greeting }) => {
  const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

  it('creates a response without streaming', async () => {
    const response = await client().responses.create({ model, instructions: 'Be brief.', input: 'Hello there', max_output_tokens: 100 });
    expect(response.output_text).toBe(`${greeting}: you said "Hello there"`);
    expect(response.status).toBe('completed');
    expect(response.usage!.output_tokens).toBeGreaterThan(0);
  });

  it('streams response events ending with response.completed', async () => {
    const stream = await client().responses.create({ model, input: 'Hello there', stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe(`${greeting}: you said "Hello there"`);
  });

  it('makes a round trip with function calls', async () => {
    const tools = [{ type: 'function' as const, name: weatherTool.name, description: weatherTool.description, parameters: weatherTool.parameters, strict: false }];
    const first = await client().responses.create({ model, input: 'What is the weather in Paris and Tokyo?', tools });
    const calls = first.output.filter((item) => item.type === 'function_call');
    expect(calls.map((call) => call.type === 'function_call' && JSON.parse(call.arguments))).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    const second = await client().responses.create({
      model,
      tools,
      input: [
        { role: 'user', content: 'What is the weather in Paris and Tokyo?' },
        ...calls,
        ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.type === 'function_call' ? call.call_id : '', output: `sunny in ${call.type === 'function_call' ? JSON.parse(call.arguments).city : ''}` })),
      ] as OpenAI.Responses.ResponseInput,
    });
    expect(second.output_text).toContain('sunny in Paris');
    expect(second.output_text).toContain('sunny in Tokyo');
  });

  it('refuses a previous_response_id the gateway never relayed with a 404 naming it', async () => {
    // An owned id on a translated channel gets a 400 naming the field: test/e2e/response-ownership.test.ts.
    await expect(client().responses.create({ model, input: 'x', previous_response_id: 'resp_123' })).rejects.toMatchObject({ status: 404, param: 'previous_response_id', code: 'previous_response_not_found' });
  });
});

describe('Gemini specifics', () => {
  it('takes the key as ?key= and answers errors in Google’s shape', async () => {
    const ok = await fetch(`${gateway.url}/v1beta/models/gemini-up:generateContent?key=${KEY}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${gateway.url}/v1beta/models/gemini-up:generateContent?key=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('accepts a GET carrying a body', async () => {
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${gateway.url}/v1beta/models/gemini-up:generateContent`);
      const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'via get' }] }] });
      import('node:http').then(({ request }) => {
        const req = request(url, { method: 'GET', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      }, reject);
    });
    expect(response.status).toBe(200);
    expect(response.body).toContain('you said \\"via get\\"');
  });

  it('lists models in Gemini’s shape', async () => {
    const response = await fetch(`${gateway.url}/v1beta/models`, { headers: { 'x-goog-api-key': KEY } });
    const body = await response.json() as { models: { name: string }[] };
    expect(body.models.map((model) => model.name)).toEqual(['models/bedrock-up', 'models/claude-up', 'models/gemini-up', 'models/gpt-up']);
  });
});

describe('Anthropic specifics', () => {
  it('requires anthropic-version, answering in Anthropic’s error shape', async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-up', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('forwards the client’s anthropic-version and anthropic-beta on a passthrough hop', async () => {
    await new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'some-beta-2025-01-01' } }).messages.create({ model: 'claude-up', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    const seen = anthropicUpstream.requests.at(-1)!;
    expect(seen.headers['anthropic-beta']).toBe('some-beta-2025-01-01');
    expect(seen.headers['x-api-key']).toBe('sk-up-anthropic');
    expect((seen.body as { model: string }).model).toBe('claude-sonnet-4-6');
  });

  it('renders auth errors in Anthropic’s shape', async () => {
    const error = await new Anthropic({ baseURL: gateway.url, apiKey: testKey('wrong'), maxRetries: 0 }).messages.create({ model: 'claude-up', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('lists models in Anthropic’s shape when called the Anthropic way', async () => {
    const page = await new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 }).models.list();
    expect(page.data.map((model) => model.id)).toEqual(['bedrock-up', 'claude-up', 'gemini-up', 'gpt-up']);
    expect(page.data[0]!.type).toBe('model');
  });

  it('finishes a passthrough stream that ended without message_stop, and skips a malformed event', async () => {
    anthropicUpstream.script({ omitTerminator: true, malformedChunkAt: 3 });
    const stream = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 }).messages.stream({ model: 'claude-up', max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the Anthropic simulator: you said "Hello there"' });
    expect(types.at(-1)).toBe('message_stop');
  });

  it('passes an upstream 429 back as a 429 in the client’s format', async () => {
    anthropicUpstream.script({ status: 429 }, { status: 429 });
    const error = await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'claude-up', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  });
});
