// Token counting and Gemini-shaped embeddings with the official SDKs: @anthropic-ai/sdk messages.countTokens
// and @google/genai countTokens — exact from a channel of their own format, estimated (and marked so) for
// others — and @google/genai embedContent (single and batch) to Gemini and OpenAI-type embedding channels,
// metered like any other call.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { simulatedEmbedding } from '../simulators/simulator-answers.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('countuser');
const SLOW = testKey('countslow');
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
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['gpt-up', 'openai/embed-small'], model_mapping: { 'openai/embed-small': 'text-embedding-3-small' } },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-up', 'google/embed'], model_mapping: { 'gemini-up': 'gemini-2.5-flash', 'google/embed': 'gemini-embedding-001' } },
    ],
    models: [
      { id: 'gpt-up', input_per_mtok: 1, output_per_mtok: 2 },
      { id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 },
      { id: 'gemini-up', input_per_mtok: 0.3, output_per_mtok: 2.5 },
      { id: 'openai/embed-small', input_per_mtok: 20000 },
      { id: 'google/embed', input_per_mtok: 15000 },
    ],
    users: [{ name: 'cora', balance: 100 }],
    keys: [{ name: 'count', key: KEY, user: 'cora' }, { name: 'slow', key: SLOW, user: 'cora', rpm_limit: 1 }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
});

const anthropic = (key = KEY) => new Anthropic({ baseURL: gateway.url, apiKey: key, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
const PROMPT = 'one two three four five six';

describe('@anthropic-ai/sdk messages.countTokens', () => {
  it('is exact from an Anthropic channel: its own count_tokens, model mapped', async () => {
    const { data, response } = await anthropic().messages.countTokens({ model: 'claude-up', system: 'be brief', messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    expect(data.input_tokens).toBe(8); // the simulator counts words: 2 of system + 6
    expect(response.headers.get('x-gateway-token-count')).toBe('exact');
    expect(anthropicUpstream.requests.at(-1)).toMatchObject({ path: '/v1/messages/count_tokens', body: { model: 'claude-sonnet-4-6' } });
  });

  it.each(['gpt-up', 'gemini-up'])('is an estimate for a model served by another format (%s)', async (model) => {
    const before = anthropicUpstream.requests.length;
    const { data, response } = await anthropic().messages.countTokens({ model, messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    expect(data.input_tokens).toBeGreaterThanOrEqual(6);
    expect(data.input_tokens).toBeLessThan(20);
    expect(response.headers.get('x-gateway-token-count')).toBe('estimate');
    expect(anthropicUpstream.requests.length).toBe(before);
  });

  it('falls back to an estimate when the Anthropic channel fails, and passes the upstream’s 400 on', async () => {
    anthropicUpstream.script({ status: 500 });
    const { data, response } = await anthropic().messages.countTokens({ model: 'claude-up', messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    expect(response.headers.get('x-gateway-token-count')).toBe('estimate');
    expect(data.input_tokens).toBeGreaterThan(0);
    anthropicUpstream.script({ status: 400 });
    await expect(anthropic().messages.countTokens({ model: 'claude-up', messages: [{ role: 'user', content: PROMPT }] })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses what /v1/messages refuses, in Anthropic’s shape: unknown model 404, bad body 400, over the rpm limit 429', async () => {
    await expect(anthropic().messages.countTokens({ model: 'acme/none', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, error: { error: { type: 'not_found_error' } } });
    await expect(anthropic().messages.countTokens({ model: 'claude-up', messages: [{ role: 'robot', content: 'x' }] } as never)).rejects.toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
    await anthropic(SLOW).messages.countTokens({ model: 'gpt-up', messages: [{ role: 'user', content: 'x' }] });
    await expect(anthropic(SLOW).messages.countTokens({ model: 'gpt-up', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 429 });
  });
});

describe('@google/genai countTokens', () => {
  it('is exact from a Gemini channel (model mapped in the path)', async () => {
    const counted = await google().models.countTokens({ model: 'gemini-up', contents: PROMPT });
    expect(counted.totalTokens).toBe(6);
    expect(geminiUpstream.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
  });

  it.each(['claude-up', 'gpt-up'])('is an estimate for %s', async (model) => {
    const counted = await google().models.countTokens({ model, contents: PROMPT });
    expect(counted.totalTokens).toBeGreaterThanOrEqual(6);
    expect(counted.totalTokens).toBeLessThan(20);
  });

  it('answers an unknown model with Google’s 404', async () => {
    await expect(google().models.countTokens({ model: 'acme/none', contents: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('@google/genai embedContent', () => {
  it.each([
    { model: 'google/embed', channel: 'Gemini', upstream: () => geminiUpstream },
    { model: 'openai/embed-small', channel: 'OpenAI-type', upstream: () => openaiUpstream },
  ])('embeds one text and a batch through the $channel channel, in Gemini’s shape', async ({ model, upstream }) => {
    const before = upstream().requests.length;
    const one = await google().models.embedContent({ model, contents: 'alpha beta', config: { outputDimensionality: 8 } });
    expect(one.embeddings).toHaveLength(1);
    expect(one.embeddings![0]!.values).toEqual(simulatedEmbedding('alpha beta', 8));
    const batch = await google().models.embedContent({ model, contents: ['alpha', 'beta gamma', 'delta'], config: { outputDimensionality: 4 } });
    expect(batch.embeddings!.map((embedding) => embedding.values)).toEqual(['alpha', 'beta gamma', 'delta'].map((text) => simulatedEmbedding(text, 4)));
    expect(upstream().requests.length).toBe(before + 2);
  });

  it('single embedContent (the REST method) answers `embedding`', async () => {
    const response = await fetch(`${gateway.url}/v1beta/models/openai%2Fembed-small:embedContent`, {
      method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ text: 'alpha' }] }, outputDimensionality: 3 }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ embedding: { values: simulatedEmbedding('alpha', 3) } });
  });

  it('is metered: a usage row with tokens and a cost', async () => {
    await google().models.embedContent({ model: 'openai/embed-small', contents: ['metered words here'] });
    await google().models.embedContent({ model: 'google/embed', contents: ['metered words here'] });
    await gateway.recorder.flush();
    for (const model of ['openai/embed-small', 'google/embed']) {
      const log = await gateway.database.db.selectFrom('usage_logs').selectAll().where('model', '=', model).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      expect(log.status).toBe(200);
      expect(log.input_tokens).toBeGreaterThan(0);
      expect(log.cost_micros).toBeGreaterThan(0);
    }
  });

  it('refuses a model no embedding channel serves, and a malformed body, in Google’s shape', async () => {
    await expect(google().models.embedContent({ model: 'claude-up', contents: 'x' })).rejects.toMatchObject({ status: 400 });
    const bad = await fetch(`${gateway.url}/v1beta/models/google/embed:batchEmbedContents`, { method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ requests: [] }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const before = openaiUpstream.requests.length;
    const image = await fetch(`${gateway.url}/v1beta/models/openai/embed-small:embedContent`, {
      method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] } }),
    });
    expect(image.status).toBe(400);
    expect((await image.json()).error.message).toContain('requests[0].content.parts[0] is not text');
    expect(openaiUpstream.requests.length).toBe(before);
  });
});
