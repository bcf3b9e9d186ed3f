// Model ids with a slash prefix (`google/gemini-2.0-flash`, `Qwen/Qwen2.5-7B-Instruct`) through every route:
// each official SDK calls a prefixed id on each channel type, streamed and not; listed, looked up, routed,
// mapped, priced, limited and logged like plain ids; a prefixed id nobody serves is a 404 in each shape.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('prefixeduser');
const NARROW = testKey('prefixednarrow');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

const upstreams = [
  { name: 'OpenAI channel', model: 'Qwen/Qwen2.5-7B-Instruct', greeting: 'Hello from the OpenAI simulator' },
  { name: 'Anthropic channel', model: 'anthropic/claude-sonnet-4-6', greeting: 'Hello from the Anthropic simulator' },
  { name: 'Gemini channel', model: 'google/gemini-2.0-flash', greeting: 'Hello from the Gemini simulator' },
] as const;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['Qwen/Qwen2.5-7B-Instruct'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['anthropic/claude-sonnet-4-6'], model_mapping: { 'anthropic/claude-sonnet-4-6': 'claude-sonnet-4-6' } },
      // No mapping: the upstream gets the prefixed id itself, in the path, as @google/genai would send it.
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['google/gemini-2.0-flash'] },
    ],
    models: [
      { id: 'Qwen/Qwen2.5-7B-Instruct', input_per_mtok: 1, output_per_mtok: 2 },
      { id: 'anthropic/claude-sonnet-4-6', input_per_mtok: 3, output_per_mtok: 15 },
      { id: 'google/gemini-2.0-flash', input_per_mtok: 0.3, output_per_mtok: 2.5 },
    ],
    users: [{ name: 'pia', balance: 100 }],
    keys: [
      { name: 'prefixed', key: KEY, user: 'pia' },
      { name: 'narrow', key: NARROW, user: 'pia', models: ['google/gemini-2.0-flash'] },
    ],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
});

const openai = (key = KEY) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });
const anthropic = (key = KEY) => new Anthropic({ baseURL: gateway.url, apiKey: key, maxRetries: 0 });
const google = (key = KEY) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url } });

describe.each(upstreams)('a prefixed id on the $name', ({ model, greeting }) => {
  it('openai SDK: chat, whole and streamed', async () => {
    const whole = await openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(whole.choices[0]!.message.content).toBe(`${greeting}: you said "Hello there"`);
    expect(whole.model).toBe(model);
    let text = '';
    for await (const chunk of await openai().chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Hello there' }] })) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(`${greeting}: you said "Hello there"`);
  });

  it('@anthropic-ai/sdk: messages, whole and streamed', async () => {
    const whole = await anthropic().messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(whole.content[0]).toMatchObject({ type: 'text', text: `${greeting}: you said "Hello there"` });
    const streamed = await anthropic().messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] }).finalMessage();
    expect(streamed.content[0]).toMatchObject({ type: 'text', text: `${greeting}: you said "Hello there"` });
  });

  it('@google/genai: generateContent and generateContentStream (the id goes unencoded into the path)', async () => {
    const whole = await google().models.generateContent({ model, contents: 'Hello there' });
    expect(whole.text).toBe(`${greeting}: you said "Hello there"`);
    let text = '';
    for await (const chunk of await google().models.generateContentStream({ model, contents: 'Hello there' })) text += chunk.text ?? '';
    expect(text).toBe(`${greeting}: you said "Hello there"`);
  });

  it('both SDKs count its tokens (exact on a channel of their own format)', async () => {
    const anthropicCount = await anthropic().messages.countTokens({ model, messages: [{ role: 'user', content: 'one two three' }] }).withResponse();
    expect(anthropicCount.data.input_tokens).toBeGreaterThanOrEqual(3);
    expect(anthropicCount.response.headers.get('x-gateway-token-count')).toBe(model.startsWith('anthropic/') ? 'exact' : 'estimate');
    expect((await google().models.countTokens({ model, contents: 'one two three' })).totalTokens).toBeGreaterThanOrEqual(3);
    if (model.startsWith('google/')) expect(geminiUpstream.requests.at(-1)!.path).toBe(`/v1beta/models/${model}:countTokens`);
  });

  it('each SDK looks the model up', async () => {
    expect(await openai().models.retrieve(model)).toMatchObject({ id: model, object: 'model' });
    expect(await anthropic().models.retrieve(model)).toMatchObject({ id: model, type: 'model' });
    expect(await google().models.get({ model })).toMatchObject({ name: `models/${model}` });
  });
});

describe('prefixed ids like plain ones', () => {
  it('are listed by each SDK', async () => {
    const ids = upstreams.map((upstream) => upstream.model).sort();
    expect((await openai().models.list()).data.map((entry) => entry.id).sort()).toEqual(ids);
    expect((await anthropic().models.list()).data.map((entry) => entry.id).sort()).toEqual(ids);
    const names: string[] = [];
    for await (const entry of await google().models.list()) names.push(entry.name!);
    expect(names.sort()).toEqual(ids.map((id) => `models/${id}`));
  });

  it('work percent-encoded in the path too, and reach the Gemini upstream by the same path', async () => {
    const response = await fetch(`${gateway.url}/v1beta/models/google%2Fgemini-2.0-flash:generateContent`, {
      method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ parts: [{ text: 'encoded' }] }] }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).candidates[0].content.parts[0].text).toBe('Hello from the Gemini simulator: you said "encoded"');
    expect(geminiUpstream.requests.at(-1)!.path).toBe('/v1beta/models/google/gemini-2.0-flash:generateContent');
    const lookup = await fetch(`${gateway.url}/v1/models/Qwen%2FQwen2.5-7B-Instruct`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await lookup.json()).toMatchObject({ id: 'Qwen/Qwen2.5-7B-Instruct' });
  });

  it('are mapped, priced and logged under the prefixed id', async () => {
    await anthropic().messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'log me' }] });
    expect(anthropicUpstream.requests.at(-1)!.body).toMatchObject({ model: 'claude-sonnet-4-6' });
    await gateway.recorder.flush();
    const log = await gateway.database.db.selectFrom('usage_logs').selectAll().where('model', '=', 'anthropic/claude-sonnet-4-6').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ upstream_model: 'claude-sonnet-4-6', status: 200, key_name: 'prefixed' });
    expect(log.cost_micros).toBeGreaterThan(0);
  });

  it('are limited by a key’s model list: 403 for another prefixed id, in the caller’s shape', async () => {
    await expect(google(NARROW).models.generateContent({ model: 'Qwen/Qwen2.5-7B-Instruct', contents: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(openai(NARROW).chat.completions.create({ model: 'Qwen/Qwen2.5-7B-Instruct', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
    expect((await google(NARROW).models.generateContent({ model: 'google/gemini-2.0-flash', contents: 'x' })).text).toContain('Gemini simulator');
    await expect(openai(NARROW).models.retrieve('Qwen/Qwen2.5-7B-Instruct')).rejects.toMatchObject({ status: 404 });
  });

  it('an unserved prefixed id is a 404 in each SDK’s error shape', async () => {
    const missing = 'acme/not-served';
    await expect(openai().chat.completions.create({ model: missing, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(anthropic().messages.create({ model: missing, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, error: { type: 'error', error: { type: 'not_found_error' } } });
    await expect(google().models.generateContent({ model: missing, contents: 'x' })).rejects.toMatchObject({ status: 404 });
    const raw = await fetch(`${gateway.url}/v1beta/models/acme/not-served:streamGenerateContent?alt=sse`, { method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }) });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    await expect(anthropic().models.retrieve(missing)).rejects.toMatchObject({ status: 404 });
    await expect(google().models.get({ model: missing })).rejects.toMatchObject({ status: 404 });
  });

  it('an unknown method on a prefixed model is a 404 in Google’s shape', async () => {
    const unknown = await fetch(`${gateway.url}/v1beta/models/google/gemini-2.0-flash:predict`, { method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('a model id with a colon (Ollama style) is looked up, not taken for a method', async () => {
    const response = await fetch(`${gateway.url}/v1/models/llama3:8b`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });
});
