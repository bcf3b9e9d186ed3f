// Features that must cross formats intact: images (base64, and URLs fetched and inlined for Gemini),
// reasoning both ways, stop sequences, JSON mode, per-target parameter ranges, finish reasons and usage.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('featureuser');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let images: Server;
let imageUrl: string;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'k-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'k-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'k-gemini' });
  images = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/cat.png`;
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'k-openai', models: ['gpt-f'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'k-anthropic', models: ['claude-f'] },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'k-gemini', models: ['gemini-f'] },
    ],
    models: ['gpt-f', 'claude-f', 'gemini-f'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 1 })),
    users: [{ name: 'fay', balance: 10 }],
    keys: [{ name: 'f', key: KEY, user: 'fay' }],
  }, { env: { IMAGE_FETCH_ALLOW_PRIVATE: 'true' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close(), geminiUpstream?.close()]);
  await new Promise((resolve) => images?.close(resolve));
});

const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });

describe('images', () => {
  it('fetches an image URL and sends its bytes inline to Gemini', async () => {
    await openai().chat.completions.create({ model: 'gemini-f', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: imageUrl } }] }] });
    const body = geminiUpstream.requests.at(-1)!.body as { contents: { parts: { inlineData?: { mimeType: string; data: string } }[] }[] };
    const inline = body.contents[0]!.parts.find((part) => part.inlineData)!.inlineData!;
    expect(inline.mimeType).toBe('image/png');
    expect(Buffer.from(inline.data, 'base64')).toEqual(PNG);
  });

  it('carries a base64 image from an OpenAI client to Anthropic as an image block', async () => {
    await openai().chat.completions.create({ model: 'claude-f', max_tokens: 50, messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } }] }] });
    const body = anthropicUpstream.requests.at(-1)!.body as { messages: { content: { type: string; source?: { type: string; media_type: string; data: string } }[] }[] };
    const image = body.messages[0]!.content.find((block) => block.type === 'image')!;
    expect(image.source).toEqual({ type: 'base64', media_type: 'image/png', data: PNG.toString('base64') });
  });

  it('refuses an image URL on a private network unless allowed', async () => {
    const strict = await startTestGateway({
      channels: [{ name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'k-gemini', models: ['gemini-f'] }],
      models: [{ id: 'gemini-f', free: true }],
      users: [{ name: 'u' }],
      keys: [{ name: 'k', key: KEY, user: 'u' }],
    });
    try {
      const error = await new OpenAI({ baseURL: `${strict.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'gemini-f', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: imageUrl } }] }] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, code: 'image_url_forbidden' });
    } finally {
      await strict.dispose();
    }
  });
});

describe('reasoning', () => {
  it('turns an OpenAI reasoning_effort into Anthropic thinking, and the thinking comes back as reasoning_content', async () => {
    const completion = await openai().chat.completions.create({ model: 'claude-f', max_tokens: 8000, reasoning_effort: 'low', messages: [{ role: 'user', content: 'Think first' }] });
    const sent = anthropicUpstream.requests.at(-1)!.body as { thinking?: { type: string; budget_tokens: number } };
    expect(sent.thinking?.type).toBe('enabled');
    expect(sent.thinking!.budget_tokens).toBeGreaterThanOrEqual(1024);
    expect((completion.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe('Thinking about "Think first".');
    expect(completion.choices[0]!.message.content).toContain('you said "Think first"');
  });

  it('turns Anthropic thinking into Gemini thinkingConfig and Gemini thoughts into thinking blocks', async () => {
    const message = await anthropic().messages.create({ model: 'gemini-f', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'Ponder' }] });
    const sent = geminiUpstream.requests.at(-1)!.body as { generationConfig?: { thinkingConfig?: { thinkingBudget?: number; includeThoughts?: boolean } } };
    expect(sent.generationConfig?.thinkingConfig?.includeThoughts).toBe(true);
    expect(sent.generationConfig?.thinkingConfig?.thinkingBudget).toBe(2048);
    expect(message.content[0]!.type).toBe('thinking');
    expect(message.content.find((block) => block.type === 'text')).toMatchObject({ text: expect.stringContaining('you said "Ponder"') });
  });
});

describe('parameters', () => {
  it('carries stop sequences, and the finish reason comes back mapped with the raw value kept in the log', async () => {
    const completion = await openai().chat.completions.create({ model: 'claude-f', max_tokens: 100, stop: ['simulator'], messages: [{ role: 'user', content: 'Hello' }] });
    expect((anthropicUpstream.requests.at(-1)!.body as { stop_sequences: string[] }).stop_sequences).toEqual(['simulator']);
    expect(completion.choices[0]!.message.content).toBe('Hello from the Anthropic ');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });

  it('maps a max-tokens cut to finish_reason length', async () => {
    const completion = await openai().chat.completions.create({ model: 'gemini-f', max_tokens: 3, messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.usage!.completion_tokens).toBe(3);
  });

  it('asks Gemini for JSON when the client asks for a JSON schema', async () => {
    await openai().chat.completions.create({ model: 'gemini-f', messages: [{ role: 'user', content: 'Give JSON' }], response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } } } } });
    const config = (geminiUpstream.requests.at(-1)!.body as { generationConfig: { responseMimeType?: string; responseJsonSchema?: unknown; responseSchema?: unknown } }).generationConfig;
    expect(config.responseMimeType).toBe('application/json');
    expect(config.responseJsonSchema ?? config.responseSchema).toBeDefined();
  });

  it('validates temperature 0–2 on the compatible endpoint, and brings one above Anthropic’s range to its limit', async () => {
    await expect(openai().chat.completions.create({ model: 'gpt-f', temperature: 2.5, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 400, param: 'temperature' });
    await openai().chat.completions.create({ model: 'claude-f', temperature: 1.5, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    // Anthropic's range is 0–1: the value is sent as 1 and the change logged (docs/format-mapping.md).
    expect((anthropicUpstream.requests.at(-1)!.body as { temperature: number }).temperature).toBe(1);
  });

  it('maps usage with cached and reasoning tokens into the log', async () => {
    await anthropic().messages.create({ model: 'gpt-f', max_tokens: 50, messages: [{ role: 'user', content: 'count' }] });
    await gateway.recorder.flush();
    const log = await gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log.inbound_format).toBe('anthropic-messages');
    expect(log.input_tokens).toBeGreaterThan(0);
    expect(log.output_tokens).toBeGreaterThan(0);
  });
});
