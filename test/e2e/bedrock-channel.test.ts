// A `bedrock` channel end to end: the official openai, @anthropic-ai/sdk and @google/genai clients → the
// gateway → the Bedrock simulator, which recomputes every request's SigV4 signature. Whole and streamed
// (the binary event stream decoded by the relay), with a tool round trip in each. Operations (metering,
// refused credentials, channel test, failover): bedrock-channel-operations.test.ts.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI, type Content } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import type { TestGateway } from '../helpers/test-gateway.ts';
import { GREETING, KEY, MODEL, UPSTREAM_MODEL, startBedrockGateway, type BedrockGateway } from '../helpers/bedrock-gateway.ts';

let sim: BedrockSimulator;
let spare: BedrockSimulator;
let gateway: TestGateway;
let running: BedrockGateway | undefined;

beforeAll(async () => {
  running = await startBedrockGateway();
  ({ sim, spare, gateway } = running);
});
afterAll(() => running?.dispose());

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

  it('makes a Responses API round trip with function calls', async () => {
    const tools = [{ type: 'function' as const, name: weatherTool.name, description: weatherTool.description, parameters: weatherTool.parameters, strict: false }];
    const first = await openai().responses.create({ model: MODEL, input: 'What is the weather in Paris and Tokyo?', tools });
    const calls = first.output.filter((item) => item.type === 'function_call');
    expect(calls.map((call) => call.type === 'function_call' && JSON.parse(call.arguments))).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
    const second = await openai().responses.create({
      model: MODEL,
      tools,
      input: [
        { role: 'user', content: 'What is the weather in Paris and Tokyo?' },
        ...calls,
        ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.type === 'function_call' ? call.call_id : '', output: `sunny in ${call.type === 'function_call' ? JSON.parse(call.arguments).city : ''}` })),
      ] as OpenAI.Responses.ResponseInput,
    });
    expect(second.output_text).toBe('The tool said: sunny in Paris; sunny in Tokyo');
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

