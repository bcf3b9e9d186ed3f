// A `bedrock` channel end to end: the official openai, @anthropic-ai/sdk and @google/genai clients → the
// gateway → the Bedrock simulator, which recomputes every request's SigV4 signature. Whole and streamed
// (the binary event stream decoded by the relay), with a tool round trip in each; metering from Converse
// usage (cache reads and writes priced apart); a wrong AWS secret (502 to the client, the channel disabled
// with its reason); the channel test; failover to another channel; the credential never shown.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI, type Content } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { parseConfigText } from '../../src/config/load-config-file.ts';

const KEY = testKey('bedrockuser');
const ADMIN_KEY = testKey('bedrockadmin');
const AWS_KEY = `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`;
const TEMPORARY = { accessKeyId: 'ASIATEMPORARY0000001', secretAccessKey: 'tempSecret/abc+def', sessionToken: 'FwoGZXIvYXdzEJr//////////wEaDH+token==' };
const MODEL = 'claude-bedrock';
const UPSTREAM_MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const GREETING = 'Hello from the Bedrock simulator';
// Per million tokens: 4 input, 1 cached, 5 cache write, 8 output: each kind of token costs a different amount.
const PRICES = { input_per_mtok: 4, cached_input_per_mtok: 1, cache_write_per_mtok: 5, output_per_mtok: 8 };

let sim: BedrockSimulator;
let spare: BedrockSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  sim = await startBedrockSimulator({ credentials: [BEDROCK_SIM_CREDENTIALS, TEMPORARY] });
  spare = await startBedrockSimulator();
  const channel = { type: 'bedrock', base_url: sim.url, region: 'us-east-1', api_key: AWS_KEY };
  gateway = await startTestGateway({
    channels: [
      { ...channel, name: 'bedrock', models: [MODEL], model_mapping: { [MODEL]: UPSTREAM_MODEL } },
      { ...channel, name: 'bedrock-wrong-secret', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:not-the-secret`, models: ['fragile-bedrock'] },
      { ...channel, name: 'bedrock-primary', models: ['ha-bedrock'], priority: 1 },
      { ...channel, name: 'bedrock-secondary', base_url: spare.url, models: ['ha-bedrock'], priority: 0 },
      { ...channel, name: 'bedrock-temporary', api_key: `${TEMPORARY.accessKeyId}:${TEMPORARY.secretAccessKey}:${TEMPORARY.sessionToken}`, models: ['temp-bedrock'], model_mapping: { 'temp-bedrock': 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3' } },
    ],
    models: [{ id: MODEL, ...PRICES }, { id: 'fragile-bedrock', ...PRICES }, { id: 'ha-bedrock', ...PRICES }, { id: 'temp-bedrock', ...PRICES }],
    users: [{ name: 'bea', balance: 100 }, { name: 'root', role: 'admin', balance: 1 }],
    keys: [{ name: 'bedrock', key: KEY, user: 'bea' }, { name: 'admin', key: ADMIN_KEY, user: 'root' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await sim?.close();
  await spare?.close();
});

const weatherTool = { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });

describe('openai SDK → bedrock channel', () => {
  it('chats without streaming; the upstream got a signed Converse call with the model id encoded in the path', async () => {
    const completion = await openai().chat.completions.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBe(`${GREETING}: you said "Hello there"`);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.model).toBe(MODEL);
    expect(completion.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 9 });
    const seen = sim.requests.at(-1)!;
    expect(seen.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse');
    expect(sim.modelIds.at(-1)).toBe(UPSTREAM_MODEL);
    expect(String(seen.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIASIMULATOR0000001\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    expect(seen.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'Hello there' }] }], system: [{ text: 'Be brief.' }], inferenceConfig: { maxTokens: 100 } });
  });

  it('streams from ConverseStream, with usage', async () => {
    const stream = await openai().chat.completions.create({ model: MODEL, max_tokens: 100, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hello there' }] });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(`${GREETING}: you said "Hello there"`);
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 9 });
    expect(sim.requests.at(-1)!.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream');
  });

  it('makes a round trip with parallel tool calls, streamed', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
    const tools = [{ type: 'function' as const, function: weatherTool }];
    const first = await openai().chat.completions.stream({ model: MODEL, max_tokens: 200, messages, tools }).finalChatCompletion();
    const calls = first.choices[0]!.message.tool_calls!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(calls.map((call) => call.type === 'function' && JSON.parse(call.function.arguments))).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    messages.push(first.choices[0]!.message as OpenAI.ChatCompletionMessageParam);
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: `sunny in ${call.type === 'function' ? JSON.parse(call.function.arguments).city : ''}` });
    const second = await openai().chat.completions.create({ model: MODEL, max_tokens: 200, messages, tools });
    expect(second.choices[0]!.message.content).toBe('The tool said: sunny in Paris; sunny in Tokyo');
    // Converse got the tool results in one user turn, answering the toolUse ids it gave.
    const sent = sim.requests.at(-1)!.body as { messages: { role: string; content: Record<string, unknown>[] }[]; toolConfig: unknown };
    expect(sent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent.messages[2]!.content).toEqual(calls.map((call) => ({ toolResult: { toolUseId: call.id, content: [{ text: `sunny in ${call.type === 'function' ? JSON.parse(call.function.arguments).city : ''}` }], status: 'success' } })));
    expect(sent.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'get_weather', description: weatherTool.description, inputSchema: { json: weatherTool.parameters } } }] });
  });

  it('answers with the Responses API, whole and streamed', async () => {
    const response = await openai().responses.create({ model: MODEL, instructions: 'Be brief.', input: 'Hello there', max_output_tokens: 100 });
    expect(response.output_text).toBe(`${GREETING}: you said "Hello there"`);
    let text = '';
    const types: string[] = [];
    for await (const event of await openai().responses.create({ model: MODEL, input: 'Hello there', stream: true })) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe(`${GREETING}: you said "Hello there"`);
    expect(types.at(-1)).toBe('response.completed');
  });
});

describe('@anthropic-ai/sdk → bedrock channel', () => {
  it('sends messages without streaming', async () => {
    const message = await anthropic().messages.create({ model: MODEL, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: `${GREETING}: you said "Hello there"` });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.model).toBe(MODEL);
  });

  it('streams the exact Anthropic event sequence', async () => {
    const stream = anthropic().messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: `${GREETING}: you said "Hello there"` });
    expect(message.usage.output_tokens).toBe(9);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('makes a round trip with parallel tool use, streamed', async () => {
    const tools: Anthropic.Tool[] = [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
    const first = await anthropic().messages.stream({ model: MODEL, max_tokens: 200, messages, tools }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const uses = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(uses.map((use) => use.input)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: `sunny in ${(use.input as { city: string }).city}` })) });
    const second = await anthropic().messages.create({ model: MODEL, max_tokens: 200, messages, tools });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'The tool said: sunny in Paris; sunny in Tokyo' })]);
  });
});

describe('@google/genai → bedrock channel', () => {
  const declarations = [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }];

  it('generates content without streaming', async () => {
    const response = await google().models.generateContent({ model: MODEL, contents: 'Hello there', config: { systemInstruction: 'Be brief.', maxOutputTokens: 100 } });
    expect(response.text).toBe(`${GREETING}: you said "Hello there"`);
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 4, candidatesTokenCount: 9 });
  });

  it('streams', async () => {
    let text = '';
    for await (const chunk of await google().models.generateContentStream({ model: MODEL, contents: 'Hello there' })) text += chunk.text ?? '';
    expect(text).toBe(`${GREETING}: you said "Hello there"`);
  });

  it('makes a round trip with parallel function calls, streamed', async () => {
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris and Tokyo?' }] }];
    const calls: { name: string; args: Record<string, unknown>; id?: string }[] = [];
    const modelParts: Content['parts'] = [];
    for await (const chunk of await google().models.generateContentStream({ model: MODEL, contents, config: { tools: [{ functionDeclarations: declarations }] } })) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        modelParts.push(part);
        if (part.functionCall) calls.push({ name: part.functionCall.name!, args: part.functionCall.args ?? {}, ...(part.functionCall.id ? { id: part.functionCall.id } : {}) });
      }
    }
    expect(calls.map((call) => call.args)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    contents.push({ role: 'model', parts: modelParts });
    contents.push({ role: 'user', parts: calls.map((call) => ({ functionResponse: { name: call.name, ...(call.id ? { id: call.id } : {}), response: { result: `sunny in ${String(call.args.city)}` } } })) });
    const second = await google().models.generateContent({ model: MODEL, contents, config: { tools: [{ functionDeclarations: declarations }] } });
    expect(second.text).toContain('sunny in Paris');
    expect(second.text).toContain('sunny in Tokyo');
  });
});

async function admin(method: string, path: string, body?: object) {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}
const channelRow = (name: string) => gateway.database.db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

describe('bedrock channel operations', () => {
  it.each([false, true])('bills from Converse usage, cache reads and writes priced apart (streamed: %s)', async (stream) => {
    sim.script({ cachedTokens: 2, cacheWriteTokens: 1 });
    const prompt = 'Please tell me about the quiet harbour town';
    if (stream) {
      for await (const _chunk of await openai().chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: prompt }] })) { /* drain */ }
    } else {
      await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: prompt }] });
    }
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'bedrock').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    // 8 prompt words: 5 uncached + 2 read from cache + 1 written; the answer is 15 words.
    expect(row).toMatchObject({ status: 200, model: MODEL, input_tokens: 8, cached_tokens: 2, cache_write_tokens: 1, output_tokens: 15, tokens_counted: 0 });
    expect(Number(row.cost_micros)).toBe(5 * 4 + 2 * 1 + 1 * 5 + 15 * 8);
  });

  it('counts what an upstream without usage did not report, from what was sent and delivered', async () => {
    sim.script({ omitUsage: true });
    await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }] });
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'bedrock').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(row.tokens_counted).toBe(1);
    expect(row.output_tokens).toBeGreaterThan(0);
    expect(Number(row.cost_micros)).toBeGreaterThan(0);
  });

  it('ends a stream Bedrock breaks off with an exception event with an error in the client’s own format', async () => {
    sim.failNextStream({ type: 'modelStreamErrorException', message: 'The model stopped unexpectedly.', afterMessages: 4 });
    let text = '';
    const error = await (async () => {
      for await (const chunk of await openai().chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Hello there' }] })) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe('Hello from the ');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('The model stopped unexpectedly.');
  });

  it('gives the client a clear 502 for a wrong AWS secret and disables the channel with its reason', async () => {
    const error = await openai().chat.completions.create({ model: 'fragile-bedrock', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain("refused the gateway's credentials");
    expect((error as Error).message).not.toContain('not-the-secret');
    const channel = await channelRow('bedrock-wrong-secret');
    expect(channel.status).toBe('auto_disabled');
    expect(channel.status_reason).toContain("refused the gateway's credentials (403");
    await expect(openai().chat.completions.create({ model: 'fragile-bedrock', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 503 });
  });

  it('tests the channel with a signed Converse probe', async () => {
    const tested = await admin('POST', `/api/admin/channels/${(await channelRow('bedrock')).id}/test`, {});
    expect(tested.body).toMatchObject({ ok: true, status: 200, channel: 'bedrock' });
    expect(sim.requests.at(-1)!.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'ping' }] }], inferenceConfig: { maxTokens: 8 } });
  });

  it('fails over to the next channel when Bedrock keeps answering 503 ServiceUnavailable', async () => {
    // A 5xx is retried once on the same channel (docs/failover.md), then the next route is taken.
    sim.script({ status: 503 }, { status: 503 });
    const before = spare.requests.length;
    const completion = await openai().chat.completions.create({ model: 'ha-bedrock', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBe(`${GREETING}: you said "Hello there"`);
    expect(spare.requests.length).toBe(before + 1);
  });

  it('passes a ValidationException on as a 400 with its message, in the client’s format', async () => {
    sim.script({ status: 400, body: { message: 'The provided request is not valid' } });
    const error = await anthropic().messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('The provided request is not valid');
  });

  it('answers a Bedrock throttle as a 429', async () => {
    sim.script({ status: 429 }, { status: 429 }, { status: 429 });
    const error = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    sim.reset();
  });

  it('keeps the AWS credential encrypted and never shows it; the region is shown', async () => {
    const stored = await channelRow('bedrock');
    expect(stored.api_keys_encrypted).not.toContain(BEDROCK_SIM_CREDENTIALS.secretAccessKey);
    const listed = await admin('GET', '/api/admin/channels');
    expect(JSON.stringify(listed.body)).not.toContain(BEDROCK_SIM_CREDENTIALS.secretAccessKey);
    expect(JSON.stringify(listed.body)).not.toContain(BEDROCK_SIM_CREDENTIALS.accessKeyId);
    const view = (listed.body.data as Record<string, unknown>[]).find((channel) => channel.name === 'bedrock');
    expect(view).toMatchObject({ type: 'bedrock', region: 'us-east-1', id: stored.id });
  });

  it('signs temporary credentials with their session token, for a model named by an inference profile ARN', async () => {
    const completion = await openai().chat.completions.create({ model: 'temp-bedrock', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBe(`${GREETING}: you said "Hello there"`);
    const seen = sim.requests.at(-1)!;
    expect(seen.headers['x-amz-security-token']).toBe(TEMPORARY.sessionToken);
    expect(seen.path).toBe('/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fa1b2c3/converse');
    expect(sim.modelIds.at(-1)).toBe('arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3');
  });

  it('refuses a bedrock channel without a region or with a credential it cannot use, naming the field and not the value', async () => {
    const noRegion = await admin('POST', '/api/admin/channels', { name: 'no-region', type: 'bedrock', api_key: AWS_KEY, models: ['x'] });
    expect(noRegion.status).toBe(400);
    expect(noRegion.body).toMatchObject({ error: { param: 'region' } });
    const badKey = await admin('POST', '/api/admin/channels', { name: 'bad-key', type: 'bedrock', region: 'eu-west-1', api_key: 'only-one-part-secret', models: ['x'] });
    expect(badKey.status).toBe(400);
    expect(badKey.body).toMatchObject({ error: { param: 'api_key' } });
    expect(JSON.stringify(badKey.body)).not.toContain('only-one-part-secret');
    const bedrockId = (await channelRow('bedrock')).id;
    expect((await admin('PATCH', `/api/admin/channels/${bedrockId}`, { api_key: 'nope' })).status).toBe(400);
    expect((await admin('PATCH', `/api/admin/channels/${bedrockId}`, { region: 'Not A Region' })).status).toBe(400);
  });

  it('refuses the same in the config file, naming the file, the field and the problem', () => {
    const text = JSON.stringify({ channels: [{ name: 'b', type: 'bedrock', api_key: 'AKIA-only', models: ['x'] }] });
    expect(() => parseConfigText('gateway.yaml', text)).toThrow(/channels\[0\]\.region: a bedrock channel needs its AWS region[\s\S]*channels\[0\]\.api_key: a bedrock channel's api_key must be/);
  });
});
