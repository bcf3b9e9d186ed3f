// Refusals from Anthropic and Gemini channels, end to end with the official SDKs: a prompt over the model's
// context window (each provider's own 400 envelope, read by its format's refusal reader) goes to the larger
// model the operator configured as a fallback and is billed as that model; a content-policy refusal (which
// both providers give as a 200 answer) reaches the client as it is, is not retried elsewhere, and does not
// count against the channel's health.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicError, startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { geminiError } from '../simulators/gemini-simulator-errors.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('refusals');
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

// Each served model maps to its own upstream model, so the upstream's recorded requests say which channel
// and which model each attempt went to: `*-small` on the primary channel, the same on the backup, `*-big`
// for the configured larger model.
const ANTHROPIC = { primary: 'claude-haiku-4-5-20251001', backup: 'claude-sonnet-4-6', big: 'claude-opus-4-6' };
const GEMINI = { primary: 'gemini-2.5-flash-lite', backup: 'gemini-2.5-flash', big: 'gemini-2.5-pro' };
const priced = (id: string, fallbacks?: string[]) => ({ id, input_per_mtok: id.endsWith('big') ? 10 : 1, output_per_mtok: id.endsWith('big') ? 10 : 1, ...(fallbacks ? { fallbacks } : {}) });

beforeAll(async () => {
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  const anthropic = { type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic' };
  const gemini = { type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key' };
  gateway = await startTestGateway({
    channels: [
      { ...anthropic, name: 'anthropic-primary', priority: 1, models: ['claude-small'], model_mapping: { 'claude-small': ANTHROPIC.primary } },
      { ...anthropic, name: 'anthropic-backup', priority: 0, models: ['claude-small', 'claude-big'], model_mapping: { 'claude-small': ANTHROPIC.backup, 'claude-big': ANTHROPIC.big } },
      { ...gemini, name: 'gemini-primary', priority: 1, models: ['gemini-small'], model_mapping: { 'gemini-small': GEMINI.primary } },
      { ...gemini, name: 'gemini-backup', priority: 0, models: ['gemini-small', 'gemini-big'], model_mapping: { 'gemini-small': GEMINI.backup, 'gemini-big': GEMINI.big } },
    ],
    models: [priced('claude-small', ['claude-big']), priced('claude-big'), priced('gemini-small', ['gemini-big']), priced('gemini-big')],
    users: [{ name: 'rita', balance: 100 }],
    keys: [{ name: 'refusals', key: KEY, user: 'rita' }],
  // One failure opens a circuit: a refusal wrongly counted against the channel would divert the next call.
  }, { env: { BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '60000' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
});

const anthropicClient = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const googleClient = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
const openaiClient = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

/** Upstream requests per upstream model: Anthropic names it in the body, Gemini in the path. */
const anthropicCalls = (model: string) => anthropicUpstream.requests.filter((r) => r.path === '/v1/messages' && (r.body as { model?: string })?.model === model).length;
const geminiCalls = (model: string) => geminiUpstream.requests.filter((r) => r.path.includes(`/models/${model}:`)).length;

async function lastLog() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}

const ANTHROPIC_TOO_LONG = { status: 400, body: anthropicError('invalid_request_error', 'prompt is too long: 208656 tokens > 200000 maximum') };
const GEMINI_TOO_LONG = { status: 400, body: geminiError(400, 'INVALID_ARGUMENT', 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).') };

describe('a prompt over the context window goes to the configured larger model', () => {
  it('Anthropic channel, @anthropic-ai/sdk: answered by claude-big, billed as claude-big, the backup of the same size untried', async () => {
    const before = { primary: anthropicCalls(ANTHROPIC.primary), backup: anthropicCalls(ANTHROPIC.backup), big: anthropicCalls(ANTHROPIC.big) };
    anthropicUpstream.script(ANTHROPIC_TOO_LONG);
    const message = await anthropicClient().messages.create({ model: 'claude-small', max_tokens: 50, messages: [{ role: 'user', content: 'a very long prompt' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('a very long prompt') });
    expect(anthropicCalls(ANTHROPIC.primary) - before.primary).toBe(1);
    // The same model elsewhere has the same window: only the larger model is worth the attempt.
    expect(anthropicCalls(ANTHROPIC.backup) - before.backup).toBe(0);
    expect(anthropicCalls(ANTHROPIC.big) - before.big).toBe(1);
    const log = await lastLog();
    expect(log).toMatchObject({ model: 'claude-big', status: 200 });
    expect(Number(log.cost_micros)).toBeGreaterThan(0);
  });

  it('Gemini channel, @google/genai: answered by gemini-big, billed as gemini-big', async () => {
    const before = { primary: geminiCalls(GEMINI.primary), backup: geminiCalls(GEMINI.backup), big: geminiCalls(GEMINI.big) };
    geminiUpstream.script(GEMINI_TOO_LONG);
    const answer = await googleClient().models.generateContent({ model: 'gemini-small', contents: 'a very long prompt' });
    expect(answer.text).toContain('a very long prompt');
    expect(geminiCalls(GEMINI.primary) - before.primary).toBe(1);
    expect(geminiCalls(GEMINI.backup) - before.backup).toBe(0);
    expect(geminiCalls(GEMINI.big) - before.big).toBe(1);
    expect(await lastLog()).toMatchObject({ model: 'gemini-big', status: 200 });
  });

  it('Gemini channel, streamed to an OpenAI client: the translated call fails over the same way', async () => {
    const before = geminiCalls(GEMINI.big);
    geminiUpstream.script(GEMINI_TOO_LONG);
    const stream = await openaiClient().chat.completions.create({ model: 'gemini-small', stream: true, messages: [{ role: 'user', content: 'a very long prompt' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toContain('a very long prompt');
    expect(geminiCalls(GEMINI.big) - before).toBe(1);
    expect(await lastLog()).toMatchObject({ model: 'gemini-big', status: 200 });
  });

  it('Anthropic channel, an OpenAI client: the client gets the fallback’s answer, billed as the fallback', async () => {
    const before = anthropicCalls(ANTHROPIC.big);
    anthropicUpstream.script(ANTHROPIC_TOO_LONG);
    const completion = await openaiClient().chat.completions.create({ model: 'claude-small', messages: [{ role: 'user', content: 'a very long prompt' }] });
    // A translated answer carries the model name the client asked for (the upstream's name is another
    // provider's); the log says which model answered.
    expect(completion.model).toBe('claude-small');
    expect(completion.choices[0]?.message.content).toContain('a very long prompt');
    expect(anthropicCalls(ANTHROPIC.big) - before).toBe(1);
    expect(await lastLog()).toMatchObject({ model: 'claude-big', status: 200 });
  });
});

describe('a content-policy refusal goes straight to the client', () => {
  const refusal = { id: 'msg_refused', type: 'message', role: 'assistant', model: ANTHROPIC.primary, content: [], stop_reason: 'refusal', stop_sequence: null, usage: { input_tokens: 7, output_tokens: 0 } };

  it('Anthropic stop_reason "refusal": passed on, not retried, and the channel keeps serving', async () => {
    const before = { primary: anthropicCalls(ANTHROPIC.primary), backup: anthropicCalls(ANTHROPIC.backup), big: anthropicCalls(ANTHROPIC.big) };
    anthropicUpstream.script({ status: 200, body: refusal });
    const message = await anthropicClient().messages.create({ model: 'claude-small', max_tokens: 50, messages: [{ role: 'user', content: 'something refused' }] });
    expect(message.stop_reason).toBe('refusal');
    expect(message.content).toEqual([]);
    expect(anthropicCalls(ANTHROPIC.primary) - before.primary).toBe(1);
    expect(anthropicCalls(ANTHROPIC.backup) - before.backup).toBe(0);
    expect(anthropicCalls(ANTHROPIC.big) - before.big).toBe(0);
    // With a circuit that opens on one failure, the next call still goes to the primary channel.
    await anthropicClient().messages.create({ model: 'claude-small', max_tokens: 50, messages: [{ role: 'user', content: 'fine now' }] });
    expect(anthropicCalls(ANTHROPIC.primary) - before.primary).toBe(2);
    expect(anthropicCalls(ANTHROPIC.backup) - before.backup).toBe(0);
  });

  it('Anthropic refusal to an OpenAI client: finish_reason content_filter, one attempt', async () => {
    const before = anthropicUpstream.requests.length;
    anthropicUpstream.script({ status: 200, body: refusal });
    const completion = await openaiClient().chat.completions.create({ model: 'claude-small', messages: [{ role: 'user', content: 'something refused' }] });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
    expect(anthropicUpstream.requests.length - before).toBe(1);
  });

  it('Gemini promptFeedback.blockReason: passed on, not retried, and the channel keeps serving', async () => {
    const before = { primary: geminiCalls(GEMINI.primary), backup: geminiCalls(GEMINI.backup), big: geminiCalls(GEMINI.big) };
    geminiUpstream.script({ status: 200, body: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 }, modelVersion: GEMINI.primary } });
    const answer = await googleClient().models.generateContent({ model: 'gemini-small', contents: 'something refused' });
    expect(answer.promptFeedback?.blockReason).toBe('SAFETY');
    expect(answer.candidates ?? []).toEqual([]);
    expect(geminiCalls(GEMINI.primary) - before.primary).toBe(1);
    expect(geminiCalls(GEMINI.backup) - before.backup).toBe(0);
    expect(geminiCalls(GEMINI.big) - before.big).toBe(0);
    await googleClient().models.generateContent({ model: 'gemini-small', contents: 'fine now' });
    expect(geminiCalls(GEMINI.primary) - before.primary).toBe(2);
    expect(geminiCalls(GEMINI.backup) - before.backup).toBe(0);
  });

  it('Gemini block to an OpenAI client: finish_reason content_filter, one attempt', async () => {
    const before = geminiUpstream.requests.length;
    geminiUpstream.script({ status: 200, body: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 } } });
    const completion = await openaiClient().chat.completions.create({ model: 'gemini-small', messages: [{ role: 'user', content: 'something refused' }] });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
    expect(geminiUpstream.requests.length - before).toBe(1);
  });
});
