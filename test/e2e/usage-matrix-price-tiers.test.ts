// Long-context price tiers (issue 30): once a call's prompt, cached and cache-write tokens included, is
// longer than the tier's threshold, every token of the call is priced at the tier's rates. Every client
// format (OpenAI chat, Responses, Anthropic, Gemini, each through its official SDK) × an Anthropic channel
// (cache reads, five-minute and one-hour writes) and a Gemini channel (cache reads) × streamed or whole ×
// a prompt below and above the threshold: the charge is exact to the micro-dollar. The wallet reservation
// before the call is made at the tier the request will fall in.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import type { ScriptStep } from '../simulators/simulator-script.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';
import { costOfLogRow } from '../../src/metering/log-cost.ts';

const KEY = testKey('pricetiers');
const POOR_KEY = testKey('pricetierspoor');
const THRESHOLD = 20;
// 9 words: below the threshold. 26 words: above it, though its uncached part (26 − 8 cached − 4 written)
// is not: the tier is chosen by the whole prompt, as Anthropic and Google count it.
const SHORT = 'Please tell me something about the quiet harbour town';
const LONG = 'Please tell me something about the quiet harbour town, its old stone lighthouse, the fishing boats that leave before dawn and the gulls that follow them home again';
const CACHED = 8;
const CACHE_WRITE = 4;
const ONE_HOUR = 1;
// USD per million tokens, so a token of each kind costs a whole number of micro-USD; the tier's rates are
// no multiple of the listed ones, so the charge shows which rate each token paid.
const LISTED = { input_per_mtok: 3, cached_input_per_mtok: 1, cache_write_per_mtok: 5, cache_write_1h_per_mtok: 11, output_per_mtok: 7 };
const TIER = { input_per_mtok: 13, cached_input_per_mtok: 2, cache_write_per_mtok: 17, cache_write_1h_per_mtok: 29, output_per_mtok: 19 };

let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

const channels = [
  { type: 'anthropic', model: 't-anthropic', step: { cachedTokens: CACHED, cacheWriteTokens: CACHE_WRITE, cacheWrite1hTokens: ONE_HOUR }, script: (step: ScriptStep) => anthropicUpstream.script(step) },
  { type: 'gemini', model: 't-gemini', step: { cachedTokens: CACHED }, script: (step: ScriptStep) => geminiUpstream.script(step) },
];

beforeAll(async () => {
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['t-anthropic', 't-reserve'], model_mapping: { 't-anthropic': 'claude-sonnet-4-6', 't-reserve': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['t-gemini'], model_mapping: { 't-gemini': 'gemini-2.5-pro' } },
    ],
    models: [
      ...channels.map((channel) => ({ id: channel.model, ...LISTED, tiers: [{ above_prompt_tokens: THRESHOLD, ...TIER }] })),
      // Output at $10 per Mtok up to 1,000 prompt tokens, $1,000 above: 1,000 output tokens reserve 1 cent or 1 dollar.
      { id: 't-reserve', input_per_mtok: 1, output_per_mtok: 10, tiers: [{ above_prompt_tokens: 1000, input_per_mtok: 2, output_per_mtok: 1000 }] },
    ],
    users: [{ name: 'tess', balance: 100 }, { name: 'tia', balance: 0.5 }],
    keys: [{ name: 'tiers', key: KEY, user: 'tess' }, { name: 'tiers-poor', key: POOR_KEY, user: 'tia' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
});

type Call = (model: string, prompt: string, stream: boolean) => Promise<string>;

const clients: { name: string; call: Call }[] = [
  {
    name: 'openai chat',
    async call(model, prompt, stream) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
      if (!stream) return (await client.chat.completions.create({ model, max_tokens: 100, messages })).choices[0]!.message.content ?? '';
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model, max_tokens: 100, messages, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
  },
  {
    name: 'openai responses',
    async call(model, prompt, stream) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      if (!stream) return (await client.responses.create({ model, input: prompt, max_output_tokens: 100 })).output_text;
      let text = '';
      for await (const event of await client.responses.create({ model, input: prompt, max_output_tokens: 100, stream: true })) {
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
      return text;
    },
  },
  {
    name: 'anthropic messages',
    async call(model, prompt, stream) {
      const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      const params = { model, max_tokens: 100, messages: [{ role: 'user' as const, content: prompt }] };
      if (!stream) return (await client.messages.create(params)).content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      let text = '';
      for await (const event of await client.messages.create({ ...params, stream: true })) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      }
      return text;
    },
  },
  {
    name: 'gemini generateContent',
    async call(model, prompt, stream) {
      const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
      const params = { model, contents: prompt, config: { maxOutputTokens: 100 } };
      if (!stream) return (await client.models.generateContent(params)).text ?? '';
      let text = '';
      for await (const chunk of await client.models.generateContentStream(params)) text += chunk.text ?? '';
      return text;
    },
  },
];

type Prices = typeof LISTED;
type Row = { input_tokens: number; cached_tokens: number; cache_write_tokens: number; cache_write_1h_tokens: number; output_tokens: number };

/** The charge in micro-USD when every token of the row pays `prices` (a token × USD per Mtok is that many micro-USD). */
function chargeAt(prices: Prices, row: Row): number {
  const plain = row.input_tokens - row.cached_tokens - row.cache_write_tokens;
  return plain * prices.input_per_mtok + row.cached_tokens * prices.cached_input_per_mtok
    + (row.cache_write_tokens - row.cache_write_1h_tokens) * prices.cache_write_per_mtok + row.cache_write_1h_tokens * prices.cache_write_1h_per_mtok
    + row.output_tokens * prices.output_per_mtok;
}

const cells = clients.flatMap((client) => channels.flatMap((channel) => [false, true].flatMap((stream) => [SHORT, LONG].map((prompt) => ({
  label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}, ${prompt === LONG ? 'a prompt above' : 'a prompt below'} the threshold`,
  client, channel, stream, prompt,
})))));

describe('long-context price tiers', () => {
  it.each(cells)('$label', async ({ client, channel, stream, prompt }) => {
    channel.script(channel.step);
    const before = await flushedBalance(gateway, 'tess');
    const text = await client.call(channel.model, prompt, stream);
    const row = await lastUsageRow(gateway, 'tiers');
    const charged = before - (await flushedBalance(gateway, 'tess'));

    expect(text).toContain('simulator: you said');
    expect(row.tokens_counted).toBe(0);
    expect(row.cached_tokens).toBe(CACHED);
    const long = prompt === LONG;
    if (long) {
      expect(row.input_tokens).toBeGreaterThan(THRESHOLD);
      // Only the whole prompt is above the threshold, not its uncached part.
      expect(row.input_tokens - row.cached_tokens - row.cache_write_tokens).toBeLessThanOrEqual(THRESHOLD);
    } else {
      expect(row.input_tokens).toBeLessThanOrEqual(THRESHOLD);
    }
    const cost = chargeAt(long ? TIER : LISTED, row);
    expect(row.cost_micros).toBe(cost);
    expect(charged).toBe(cost);
    expect(costOfLogRow(row, gateway.state.current.pricing.get(row.model))).toBe(cost);
  });
});

describe('the wallet reservation uses the tier the request will fall in', () => {
  const ask = (prompt: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: POOR_KEY, maxRetries: 0 })
    .chat.completions.create({ model: 't-reserve', max_tokens: 1000, messages: [{ role: 'user', content: prompt }] });

  it('a short prompt reserves at the listed rates and is served; a long one would reserve at the tier\'s and is refused before anything is sent', async () => {
    // 50 cents cover 1,000 output tokens at $10 per Mtok (1 cent), not at $1,000 per Mtok ($1).
    await expect(ask(SHORT)).resolves.toMatchObject({ object: 'chat.completion' });
    const sentBefore = anthropicUpstream.requests.length;
    const longPrompt = Array.from({ length: 1500 }, (_, i) => `harbour${i}`).join(' ');
    const refusal = await ask(longPrompt).then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpenAI.APIError);
    expect(refusal).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(anthropicUpstream.requests.length).toBe(sentBefore);
  });
});
