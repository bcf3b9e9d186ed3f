// Models that say what they support (issue 29 item 3) on the chat routes: a model entry's `capabilities`
// apply to /v1/chat/completions, /v1/messages and Gemini's generateContent as they do to /v1/responses.
// What the model lacks is left out before any channel is chosen (a same-format channel and a translated one
// get the same fitted request) and named in x-gateway-warnings, whole or streamed; a strict model
// (`unsupported: refuse`) gets a 400 in the caller's own error format, and nothing reaches the upstream.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('chatcaps');
const PRICES = { input_per_mtok: 1, output_per_mtok: 2 };
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const LEFT_OUT = '(an image was left out: this model does not read images)';

let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  const plain = { reasoning: false, tools: false, image_input: false };
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['gpt-plain', 'gpt-strict'], model_mapping: { 'gpt-plain': 'gpt-4o-mini', 'gpt-strict': 'gpt-4o-mini' } },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['claude-plain', 'claude-strict'], model_mapping: { 'claude-plain': 'claude-haiku-4-5', 'claude-strict': 'claude-haiku-4-5' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-plain', 'gemini-strict'], model_mapping: { 'gemini-plain': 'gemini-2.5-flash', 'gemini-strict': 'gemini-2.5-flash' } },
    ],
    models: [
      { id: 'gpt-plain', ...PRICES, max_output_tokens: 300, capabilities: plain },
      { id: 'claude-plain', ...PRICES, max_output_tokens: 300, capabilities: plain },
      { id: 'gemini-plain', ...PRICES, max_output_tokens: 300, capabilities: plain },
      { id: 'gpt-strict', ...PRICES, capabilities: { reasoning: false, unsupported: 'refuse' } },
      { id: 'claude-strict', ...PRICES, capabilities: { reasoning: false, unsupported: 'refuse' } },
      { id: 'gemini-strict', ...PRICES, capabilities: { tools: false, unsupported: 'refuse' } },
    ],
    users: [{ name: 'cap', balance: 100 }],
    keys: [{ name: 'cap', key: KEY, user: 'cap' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
});

beforeEach(() => {
  openaiUpstream.reset();
  anthropicUpstream.reset();
  geminiUpstream.reset();
});

const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
type Body = Record<string, unknown>;

describe('OpenAI chat completions', () => {
  const body = {
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is this?' }, { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${PIXEL}` } }] }],
    reasoning_effort: 'low' as const,
    tools: [{ type: 'function' as const, function: { name: 'look', parameters: { type: 'object', properties: {} } } }],
    max_completion_tokens: 1000,
  };
  const WARNINGS = 'reasoning_effort dropped: gpt-plain does not reason; tools dropped: gpt-plain does not call tools; image_url dropped: gpt-plain does not read images; max_completion_tokens dropped: gpt-plain writes at most 300 tokens; lowered to it';

  it.each([false, true])('to a channel of its own format: what the model lacks is left out and named (stream: %s)', async (stream) => {
    const { response } = stream
      ? await openai().chat.completions.create({ model: 'gpt-plain', ...body, stream: true }).withResponse()
      : await openai().chat.completions.create({ model: 'gpt-plain', ...body }).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-warnings')).toBe(WARNINGS);
    const sent = openaiUpstream.requests.at(-1)!.body as Body;
    expect(sent).not.toHaveProperty('reasoning_effort');
    expect(sent).not.toHaveProperty('tools');
    expect(sent.max_completion_tokens).toBe(300);
    expect((sent.messages as Body[])[0]!.content).toEqual([{ type: 'text', text: 'What is this?' }]);
  });

  it('to a translated channel: the same changes reach the Anthropic body', async () => {
    const { response } = await openai().chat.completions.create({ model: 'claude-plain', ...body }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBe(WARNINGS.replaceAll('gpt-plain', 'claude-plain'));
    const sent = anthropicUpstream.requests.at(-1)!.body as Body;
    expect(sent).not.toHaveProperty('thinking');
    expect(sent).not.toHaveProperty('tools');
    expect(sent.max_tokens).toBe(300);
    expect((sent.messages as Body[])[0]!.content).toEqual([{ type: 'text', text: 'What is this?' }]);
  });

  it('a strict model refuses, in OpenAI\'s error format, before anything is sent', async () => {
    const error = await openai().chat.completions.create({ model: 'gpt-strict', messages: body.messages, reasoning_effort: 'low' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('reasoning_effort');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unsupported_parameter');
    expect(openaiUpstream.requests).toEqual([]);
  });
});

describe('Anthropic Messages', () => {
  const body = {
    max_tokens: 4000,
    thinking: { type: 'enabled' as const, budget_tokens: 2048 },
    messages: [{ role: 'user' as const, content: [{ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: PIXEL } }] }],
  };

  it.each([false, true])('to an Anthropic channel: thinking and the image left out, max_tokens lowered, and named (stream: %s)', async (stream) => {
    const { response } = stream
      ? await anthropic().messages.create({ model: 'claude-plain', ...body, stream: true }).withResponse()
      : await anthropic().messages.create({ model: 'claude-plain', ...body }).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-warnings')).toBe('thinking dropped: claude-plain does not reason; image dropped: claude-plain does not read images; max_tokens dropped: claude-plain writes at most 300 tokens; lowered to it');
    const sent = anthropicUpstream.requests.at(-1)!.body as Body;
    expect(sent).not.toHaveProperty('thinking');
    expect(sent.max_tokens).toBe(300);
    expect((sent.messages as Body[])[0]!.content).toEqual([{ type: 'text', text: LEFT_OUT }]);
  });

  it('to a Gemini channel: the translated request has no thinkingConfig and no tools', async () => {
    const { response } = await anthropic().messages.create({
      model: 'gemini-plain', max_tokens: 200, thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'look', input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: 'Hello there' }],
    }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBe('thinking dropped: gemini-plain does not reason; tools dropped: gemini-plain does not call tools');
    const sent = geminiUpstream.requests.at(-1)!.body as { tools?: unknown; generationConfig?: Body };
    expect(sent.tools).toBeUndefined();
    expect(sent.generationConfig?.thinkingConfig).toBeUndefined();
  });

  it('a strict model refuses, in Anthropic\'s error format, before anything is sent', async () => {
    const error = await anthropic().messages.create({ model: 'claude-strict', ...body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const { error: detail } = (error as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { type: string; message: string } };
    expect(detail.type).toBe('invalid_request_error');
    expect(detail.message).toContain("'thinking' is not supported with the model 'claude-strict'");
    expect(anthropicUpstream.requests).toEqual([]);
  });
});

describe('Gemini generateContent', () => {
  const config = { thinkingConfig: { thinkingBudget: 512, includeThoughts: true }, tools: [{ functionDeclarations: [{ name: 'look', parametersJsonSchema: { type: 'object', properties: {} } }] }], maxOutputTokens: 1000 };
  const WARNINGS = 'generationConfig.thinkingConfig dropped: gemini-plain does not reason; tools dropped: gemini-plain does not call tools; generationConfig.maxOutputTokens dropped: gemini-plain writes at most 300 tokens; lowered to it';

  it.each([false, true])('to a Gemini channel: thinking and tools left out, maxOutputTokens lowered, and named (stream: %s)', async (stream) => {
    const params = { model: 'gemini-plain', contents: 'Hello there', config };
    let headers: Record<string, string> | undefined;
    if (stream) {
      for await (const chunk of await google().models.generateContentStream(params)) headers ??= chunk.sdkHttpResponse?.headers;
    } else headers = (await google().models.generateContent(params)).sdkHttpResponse?.headers;
    expect(headers?.['x-gateway-warnings']).toBe(WARNINGS);
    const sent = geminiUpstream.requests.at(-1)!.body as { tools?: unknown; generationConfig: Body };
    expect(sent.tools).toBeUndefined();
    expect(sent.generationConfig.thinkingConfig).toBeUndefined();
    expect(sent.generationConfig.maxOutputTokens).toBe(300);
  });

  it('to an OpenAI channel: an image the model cannot read is left out of the translated request', async () => {
    const answer = await google().models.generateContent({ model: 'gpt-plain', contents: [{ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PIXEL } }] }] });
    expect(answer.sdkHttpResponse?.headers?.['x-gateway-warnings']).toBe('inlineData dropped: gpt-plain does not read images');
    const sent = openaiUpstream.requests.at(-1)!.body as { messages: Body[] };
    expect(JSON.stringify(sent.messages)).not.toContain('image_url');
  });

  it('a strict model refuses, in Gemini\'s error format, before anything is sent', async () => {
    const error = await google().models.generateContent({ model: 'gemini-strict', contents: 'Hello there', config: { tools: config.tools } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain("'tools' is not supported with the model 'gemini-strict'");
    expect(geminiUpstream.requests).toEqual([]);
  });
});
