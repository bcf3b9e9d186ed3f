// A model entry's context window (issue 29): a prompt the gateway estimates over it is refused before
// anything is sent, in the words the caller's own provider uses for it (Anthropic's "prompt is too long: N
// tokens > M maximum", which Claude Code compacts on; OpenAI's context_length_exceeded; Google's "input token
// count"); Codex takes the code context_length_exceeded (a 400, or the WebSocket's error event) as a full
// context window and compacts. An output limit that does not fit beside the
// prompt is lowered and named in x-gateway-warnings, or refused for a strict model (Anthropic's "input length
// and `max_tokens` exceed context limit", which Claude Code retries with a lower max_tokens). A model with
// fallbacks leaves the window to the chain. The refusal is logged with its error and not charged.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('ctxwin');
const PRICES = { input_per_mtok: 1, output_per_mtok: 2 };
const WINDOW = 1000;
/** About 3,000 tokens: over the window. */
const LONG = 'the quick brown fox jumps over the lazy dog '.repeat(330);
/** About 300 tokens: fits, but not with 4,000 tokens of output. */
const MEDIUM = 'the quick brown fox jumps over the lazy dog '.repeat(33);

let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['gpt-small', 'gpt-big'], model_mapping: { 'gpt-small': 'gpt-4o-mini', 'gpt-big': 'gpt-4o-mini' } },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['claude-small', 'claude-strict', 'claude-chained'], model_mapping: { 'claude-small': 'claude-haiku-4-5', 'claude-strict': 'claude-haiku-4-5', 'claude-chained': 'claude-haiku-4-5' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-small'], model_mapping: { 'gemini-small': 'gemini-2.5-flash' } },
    ],
    models: [
      { id: 'gpt-small', ...PRICES, context_window: WINDOW },
      { id: 'gpt-big', ...PRICES },
      { id: 'claude-small', ...PRICES, context_window: WINDOW },
      { id: 'claude-strict', ...PRICES, context_window: WINDOW, capabilities: { unsupported: 'refuse' } },
      { id: 'claude-chained', ...PRICES, context_window: WINDOW, fallbacks: ['gpt-big'] },
      { id: 'gemini-small', ...PRICES, context_window: WINDOW },
    ],
    users: [{ name: 'ctx', balance: 100 }],
    keys: [{ name: 'ctx', key: KEY, user: 'ctx' }],
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
const nothingSent = () => expect([openaiUpstream.requests, anthropicUpstream.requests, geminiUpstream.requests]).toEqual([[], [], []]);

async function lastUsageRow() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'ctx').orderBy('id', 'desc').executeTakeFirstOrThrow();
}

describe('Anthropic Messages', () => {
  it('a prompt over the window: Anthropic\'s own 400, the whole message as Claude Code matches it; logged, not charged', async () => {
    const error = await anthropic().messages.create({ model: 'claude-small', max_tokens: 100, messages: [{ role: 'user', content: LONG }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const detail = ((error as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { type: string; message: string } }).error;
    expect(detail.type).toBe('invalid_request_error');
    expect(detail.message).toMatch(/^prompt is too long: \d+ tokens > 1000 maximum$/);
    expect(Number(/(\d+) tokens/.exec(detail.message)![1])).toBeGreaterThan(2500);
    nothingSent();
    const row = await lastUsageRow();
    expect([row.model, row.status, Number(row.cost_micros)]).toEqual(['claude-small', 400, 0]);
    expect(row.error).toContain('prompt is too long');
  });

  it.each([false, true])('max_tokens beyond what fits is lowered to the room left and named (stream: %s)', async (stream) => {
    const body = { model: 'claude-small', max_tokens: 4000, messages: [{ role: 'user' as const, content: MEDIUM }] };
    const { response } = stream ? await anthropic().messages.create({ ...body, stream: true }).withResponse() : await anthropic().messages.create(body).withResponse();
    expect(response.status).toBe(200);
    const sent = anthropicUpstream.requests.at(-1)!.body as { max_tokens: number };
    expect(sent.max_tokens).toBeGreaterThan(500);
    expect(sent.max_tokens).toBeLessThan(WINDOW);
    expect(response.headers.get('x-gateway-warnings')).toBe(`max_tokens lowered: claude-small has a context window of 1000 tokens and the prompt takes about ${WINDOW - sent.max_tokens}; lowered to ${sent.max_tokens}`);
  });

  it('a thinking budget that no longer fits below the lowered max_tokens goes (Anthropic would refuse the request), and is named', async () => {
    const { response } = await anthropic().messages.create({ model: 'claude-small', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: MEDIUM }] }).withResponse();
    expect(response.status).toBe(200);
    const sent = anthropicUpstream.requests.at(-1)!.body as { max_tokens: number; thinking?: unknown };
    expect(sent.max_tokens).toBeLessThan(1024);
    expect(sent).not.toHaveProperty('thinking');
    expect(response.headers.get('x-gateway-warnings')).toContain(`thinking dropped: claude-small has room for ${sent.max_tokens} output tokens, less than the smallest thinking budget`);
  });

  it('a strict model refuses it in the words Claude Code parses to retry with a lower max_tokens', async () => {
    const error = await anthropic().messages.create({ model: 'claude-strict', max_tokens: 4000, messages: [{ role: 'user', content: MEDIUM }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const message = ((error as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { message: string } }).error.message;
    const parsed = /input length and `max_tokens` exceed context limit: (\d+) \+ (\d+) > (\d+)/.exec(message);
    expect(parsed, message).not.toBeNull();
    expect(Number(parsed![2])).toBe(4000);
    expect(Number(parsed![3])).toBe(WINDOW);
    nothingSent();
  });

  it('a small request is sent untouched, without a warning', async () => {
    const { response } = await anthropic().messages.create({ model: 'claude-small', max_tokens: 200, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBeNull();
    expect((anthropicUpstream.requests.at(-1)!.body as { max_tokens: number }).max_tokens).toBe(200);
  });

  it('a model with fallbacks leaves the window to its chain: the prompt goes upstream', async () => {
    const { response } = await anthropic().messages.create({ model: 'claude-chained', max_tokens: 100, messages: [{ role: 'user', content: LONG }] }).withResponse();
    expect(response.status).toBe(200);
    expect(anthropicUpstream.requests).toHaveLength(1);
  });
});

describe('OpenAI chat completions', () => {
  it('a prompt over the window: OpenAI\'s context_length_exceeded, before anything is sent', async () => {
    const error = await openai().chat.completions.create({ model: 'gpt-small', messages: [{ role: 'user', content: LONG }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect([refused.code, refused.param, refused.type]).toEqual(['context_length_exceeded', 'messages', 'invalid_request_error']);
    expect(refused.message).toMatch(/This model's maximum context length is 1000 tokens\. However, your messages resulted in \d+ tokens\. Please reduce the length of the messages\./);
    nothingSent();
  });

  it('max_completion_tokens beyond what fits is lowered', async () => {
    const { response } = await openai().chat.completions.create({ model: 'gpt-small', max_completion_tokens: 4000, messages: [{ role: 'user', content: MEDIUM }] }).withResponse();
    const sent = openaiUpstream.requests.at(-1)!.body as { max_completion_tokens: number };
    expect(sent.max_completion_tokens).toBeLessThan(WINDOW);
    expect(response.headers.get('x-gateway-warnings')).toContain(`max_completion_tokens lowered: gpt-small has a context window of 1000 tokens`);
  });
});

describe('Gemini generateContent', () => {
  it('a prompt over the window: Google\'s INVALID_ARGUMENT with its input-token-count sentence', async () => {
    const error = await google().models.generateContent({ model: 'gemini-small', contents: LONG }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(/The input token count \(\d+\) exceeds the maximum number of tokens allowed \(1000\)\./);
    expect((error as ApiError).message).toContain('INVALID_ARGUMENT');
    nothingSent();
  });

  it('maxOutputTokens beyond what fits is lowered', async () => {
    await google().models.generateContent({ model: 'gemini-small', contents: MEDIUM, config: { maxOutputTokens: 4000 } });
    const sent = geminiUpstream.requests.at(-1)!.body as { generationConfig: { maxOutputTokens: number } };
    expect(sent.generationConfig.maxOutputTokens).toBeLessThan(WINDOW);
  });
});

describe('OpenAI Responses', () => {
  it('whole: a 400 with code context_length_exceeded and OpenAI\'s sentence', async () => {
    const error = await openai().responses.create({ model: 'claude-small', input: LONG }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect([refused.code, refused.param]).toEqual(['context_length_exceeded', 'input']);
    expect(refused.message).toContain('Your input exceeds the context window of this model. Please adjust your input and try again.');
    nothingSent();
  });

  it('streamed: the same 400 before any event; logged as the refusal, not charged', async () => {
    const error = await openai().responses.create({ model: 'gpt-small', input: LONG, stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('context_length_exceeded');
    nothingSent();
    const row = await lastUsageRow();
    expect([row.model, row.status, Number(row.cost_micros)]).toEqual(['gpt-small', 400, 0]);
  });

  it('over the WebSocket: an error event with status 400 and the code, and the connection serves the next response', async () => {
    const socket = new WebSocket(`${gateway.url.replace(/^http/, 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${KEY}` } });
    const frames: Array<Record<string, unknown>> = [];
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const until = (type: string) => new Promise<void>((resolve) => {
      const look = () => (frames.some((frame) => frame.type === type) ? resolve() : setTimeout(look, 20));
      look();
    });
    socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    socket.send(JSON.stringify({ type: 'response.create', model: 'claude-small', input: LONG, store: false }));
    await until('error');
    expect(frames).toEqual([{ type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'context_length_exceeded', param: 'input', message: 'Your input exceeds the context window of this model. Please adjust your input and try again.' } }]);
    socket.send(JSON.stringify({ type: 'response.create', model: 'claude-small', input: 'hi', store: false }));
    await until('response.completed');
    socket.close();
    expect(anthropicUpstream.requests).toHaveLength(1);
  });

  it('max_output_tokens beyond what fits is lowered on the conversation as sent', async () => {
    const { response } = await openai().responses.create({ model: 'claude-small', input: MEDIUM, max_output_tokens: 4000 }).withResponse();
    const sent = anthropicUpstream.requests.at(-1)!.body as { max_tokens: number };
    expect(sent.max_tokens).toBeLessThan(WINDOW);
    expect(response.headers.get('x-gateway-warnings')).toContain('max_output_tokens lowered: claude-small has a context window of 1000 tokens');
  });
});
