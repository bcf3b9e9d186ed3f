// The usage matrix: every client format (openai chat, openai responses, anthropic messages, gemini
// generateContent, each through its official SDK) × every channel type (openai, anthropic, gemini, bedrock) ×
// streamed or not × the upstream reporting usage (with cached and cache-write tokens) or omitting it.
// In every cell the usage-log row holds the tokens that were delivered and the wallet is charged the
// row's cost: reported counts are kept (cache reads and writes priced apart), and an upstream that says
// nothing is counted from what was sent and delivered, never billed as zero. Legacy completions and
// embeddings, reported or not, are checked the same way.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { countWords } from '../simulators/simulator-answers.ts';
import type { ScriptStep } from '../simulators/simulator-script.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('usagematrix');
const PROMPT = 'Please tell me something about the quiet harbour town';
const CACHED = 2;
const CACHE_WRITE = 1;
// Per million tokens, in USD: 4 input, 1 cached, 5 cache write, 8 output, so that a token of each kind costs
// a different whole number of micro-USD and the cost shows which kind each token was billed as.
const PRICES = { input_per_mtok: 4, cached_input_per_mtok: 1, cache_write_per_mtok: 5, output_per_mtok: 8 };

let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let bedrockUpstream: BedrockSimulator;
let gateway: TestGateway;

interface Channel {
  type: 'openai' | 'anthropic' | 'gemini' | 'bedrock';
  model: string;
  script(step: ScriptStep): void;
  /** Whether this upstream has a cache-write count to report. */
  reportsCacheWrite: boolean;
}

const channels: Channel[] = [
  { type: 'openai', model: 'm-openai', script: (step) => openaiUpstream.script(step), reportsCacheWrite: true },
  { type: 'anthropic', model: 'm-anthropic', script: (step) => anthropicUpstream.script(step), reportsCacheWrite: true },
  { type: 'gemini', model: 'm-gemini', script: (step) => geminiUpstream.script(step), reportsCacheWrite: false },
  { type: 'bedrock', model: 'm-bedrock', script: (step) => bedrockUpstream.script(step), reportsCacheWrite: true },
];

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  bedrockUpstream = await startBedrockSimulator();
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['m-openai', 'm-instruct', 'm-embed'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['m-anthropic'], model_mapping: { 'm-anthropic': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['m-gemini'], model_mapping: { 'm-gemini': 'gemini-2.5-flash' } },
      { name: 'bedrock', type: 'bedrock', base_url: bedrockUpstream.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`, models: ['m-bedrock'], model_mapping: { 'm-bedrock': 'anthropic.claude-3-5-haiku-20241022-v1:0' } },
    ],
    models: [...channels.map((channel) => ({ id: channel.model, ...PRICES })), { id: 'm-instruct', ...PRICES }, { id: 'm-embed', ...PRICES }],
    users: [{ name: 'ursula', balance: 100 }],
    keys: [{ name: 'usage', key: KEY, user: 'ursula' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
  await bedrockUpstream?.close();
});

/** What the client received: the answer text, and the usage it was shown (null when it was shown none). */
interface Delivered {
  text: string;
  usage: { input: number; output: number } | null;
}

/** `limit`: the request's output limit (max_tokens and its kin), 100 unless given; null sends none. */
type Client = (model: string, stream: boolean, limit?: number | null) => Promise<Delivered>;

/** The limit field of each client format, or nothing when `limit` is null. */
const limitOf = <K extends string>(field: K, limit: number | null | undefined) => (limit === null ? {} : { [field]: limit ?? 100 }) as Partial<Record<K, number>>;

const clients: { name: string; call: Client }[] = [
  {
    name: 'openai chat',
    async call(model, stream, limit) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
      if (!stream) {
        const completion = await client.chat.completions.create({ model, ...limitOf('max_tokens', limit), messages });
        return { text: completion.choices[0]!.message.content ?? '', usage: completion.usage ? { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens } : null };
      }
      let text = '';
      let usage: Delivered['usage'] = null;
      for await (const chunk of await client.chat.completions.create({ model, ...limitOf('max_tokens', limit), messages, stream: true, stream_options: { include_usage: true } })) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
      }
      return { text, usage };
    },
  },
  {
    name: 'openai responses',
    async call(model, stream, limit) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      if (!stream) {
        const response = await client.responses.create({ model, input: PROMPT, ...limitOf('max_output_tokens', limit) });
        return { text: response.output_text, usage: response.usage ? { input: response.usage.input_tokens, output: response.usage.output_tokens } : null };
      }
      let text = '';
      let usage: Delivered['usage'] = null;
      for await (const event of await client.responses.create({ model, input: PROMPT, ...limitOf('max_output_tokens', limit), stream: true })) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed' && event.response.usage) usage = { input: event.response.usage.input_tokens, output: event.response.usage.output_tokens };
      }
      return { text, usage };
    },
  },
  {
    name: 'anthropic messages',
    async call(model, stream, limit) {
      const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      // Anthropic requires max_tokens: a call without a limit is not made with this client.
      const params = { model, max_tokens: limit ?? 100, messages: [{ role: 'user' as const, content: PROMPT }] };
      // Anthropic's input_tokens leaves cache reads and writes out; the whole prompt is the three together.
      const shown = (usage: Partial<Anthropic.Usage> | null | undefined) =>
        usage ? (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) : 0;
      if (!stream) {
        // A same-format answer is the upstream's bytes: without usage when the upstream sent none.
        const message = await client.messages.create(params);
        const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        return { text, usage: message.usage ? { input: shown(message.usage), output: message.usage.output_tokens } : null };
      }
      // The raw events, since the SDK's message accumulator needs the usage a passthrough may not carry.
      let text = '';
      let usage: Delivered['usage'] = null;
      for await (const event of await client.messages.create({ ...params, stream: true })) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
        if (event.type === 'message_delta' && event.usage) usage = { input: shown(event.usage as Partial<Anthropic.Usage>), output: event.usage.output_tokens };
      }
      return { text, usage };
    },
  },
  {
    name: 'gemini generateContent',
    async call(model, stream, limit) {
      const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
      const params = { model, contents: PROMPT, config: limitOf('maxOutputTokens', limit) };
      if (!stream) {
        const response = await client.models.generateContent(params);
        const meta = response.usageMetadata;
        return { text: response.text ?? '', usage: meta ? { input: meta.promptTokenCount ?? 0, output: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0) } : null };
      }
      let text = '';
      let usage: Delivered['usage'] = null;
      for await (const chunk of await client.models.generateContentStream(params)) {
        text += chunk.text ?? '';
        const meta = chunk.usageMetadata;
        if (meta?.candidatesTokenCount !== undefined) usage = { input: meta.promptTokenCount ?? 0, output: meta.candidatesTokenCount + (meta.thoughtsTokenCount ?? 0) };
      }
      return { text, usage };
    },
  },
];

const balance = () => flushedBalance(gateway, 'ursula');
const lastRow = () => lastUsageRow(gateway, 'usage');

const cells = clients.flatMap((client) => channels.flatMap((channel) => [false, true].flatMap((stream) => [true, false].map((reports) => ({
  label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}, upstream ${reports ? 'reports usage' : 'omits usage'}`,
  client,
  channel,
  stream,
  reports,
})))));

describe('usage matrix', () => {
  it.each(cells)('$label', async ({ client, channel, stream, reports }) => {
    const cacheWrite = channel.reportsCacheWrite ? CACHE_WRITE : 0;
    channel.script(reports ? { cachedTokens: CACHED, cacheWriteTokens: cacheWrite } : { omitUsage: true });
    const before = await balance();
    const delivered = await client.call(channel.model, stream);
    const row = await lastRow();
    const charged = before - (await balance());

    expect(delivered.text).toContain('simulator: you said');
    expect(row.status).toBe(200);
    expect(row.model).toBe(channel.model);
    if (reports) {
      // The upstream's own counts (the simulators count a token per word), cached and cache-write included.
      expect(row.tokens_counted).toBe(0);
      expect(row.output_tokens).toBe(countWords(delivered.text));
      expect(row.cached_tokens).toBe(CACHED);
      expect(row.cache_write_tokens).toBe(cacheWrite);
    } else {
      // Nothing reported: the gateway counted what it sent and what the client received.
      expect(row.tokens_counted).toBe(1);
      expect(row.output_tokens).toBe(countTokens(delivered.text));
      expect(row.input_tokens).toBeGreaterThanOrEqual(countTokens(PROMPT));
      expect(row.cached_tokens).toBe(0);
      expect(row.cache_write_tokens).toBe(0);
    }
    expect(row.input_tokens).toBeGreaterThan(row.cached_tokens + row.cache_write_tokens);
    // Whatever usage the client was shown is the usage it was billed by. An OpenAI chat client that asked
    // for the usage chunk always gets one, counted when the upstream sent none.
    if (client.name === 'openai chat' && stream) expect(delivered.usage).not.toBeNull();
    if (delivered.usage) expect(delivered.usage).toEqual({ input: row.input_tokens, output: row.output_tokens });
    const plainInput = row.input_tokens - row.cached_tokens - row.cache_write_tokens;
    const expectedCost = plainInput * PRICES.input_per_mtok + row.cached_tokens * PRICES.cached_input_per_mtok
      + row.cache_write_tokens * PRICES.cache_write_per_mtok + row.output_tokens * PRICES.output_per_mtok;
    expect(row.cost_micros).toBe(expectedCost);
    expect(charged).toBe(expectedCost);
    expect(charged).toBeGreaterThan(0);
  });
});

describe('legacy completions and embeddings', () => {
  const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

  it.each([false, true].flatMap((stream) => [true, false].map((reports) => ({ stream, reports }))))('completions, streamed $stream, upstream reports usage $reports', async ({ stream, reports }) => {
    if (!reports) openaiUpstream.script({ omitUsage: true });
    const before = await balance();
    let text = '';
    if (stream) {
      for await (const chunk of await client().completions.create({ model: 'm-instruct', prompt: PROMPT, max_tokens: 100, stream: true })) text += chunk.choices[0]?.text ?? '';
    } else {
      text = (await client().completions.create({ model: 'm-instruct', prompt: PROMPT, max_tokens: 100 })).choices[0]!.text;
    }
    const row = await lastRow();
    expect(text.length).toBeGreaterThan(0);
    expect(row.tokens_counted).toBe(reports ? 0 : 1);
    expect(row.output_tokens).toBe(reports ? countWords(text) : countTokens(text));
    expect(row.input_tokens).toBeGreaterThan(0);
    expect(before - (await balance())).toBe(row.input_tokens * PRICES.input_per_mtok + row.output_tokens * PRICES.output_per_mtok);
  });

  it.each([true, false])('embeddings, upstream reports usage %s', async (reports) => {
    if (!reports) openaiUpstream.script({ omitUsage: true });
    const before = await balance();
    const answer = await client().embeddings.create({ model: 'm-embed', input: [PROMPT, 'and a second line'] });
    const row = await lastRow();
    expect(answer.data).toHaveLength(2);
    expect(row.tokens_counted).toBe(reports ? 0 : 1);
    expect(row.input_tokens).toBe(reports ? countWords(PROMPT) + countWords('and a second line') : countTokens(PROMPT) + countTokens('and a second line'));
    expect(row.output_tokens).toBe(0);
    expect(before - (await balance())).toBe(row.input_tokens * PRICES.input_per_mtok);
  });
});

// An upstream that reports no usage is billed by the gateway's count of what it delivered; that count can
// run above what the upstream could have produced. Here the simulators stop at the limit counted in words
// (a token per word, as a provider stops at its own tokens), and gpt-tokenizer counts those 7 words as 15
// tokens. The request's own limit caps the count: max_tokens (OpenAI chat, Anthropic), max_output_tokens
// (Responses), maxOutputTokens (Gemini), as sent upstream (a translation writes it in the channel's format).
describe('a counted output is capped by the request\'s own output limit', () => {
  const LIMIT = 7;
  const LONG_REPLY = Array.from({ length: 40 }, (_, i) => `harbour${i}`).join(' ');

  const expectBilled = async (before: number, outputTokens: number) => {
    const row = await lastRow();
    expect(row.tokens_counted).toBe(1);
    expect(row.output_tokens).toBe(outputTokens);
    const cost = row.input_tokens * PRICES.input_per_mtok + outputTokens * PRICES.output_per_mtok;
    expect(row.cost_micros).toBe(cost);
    expect(before - (await balance())).toBe(cost);
    return row;
  };

  const capped = clients.flatMap((client) => channels.flatMap((channel) => [false, true].map((stream) => ({
    label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}`, client, channel, stream,
  }))));

  it.each(capped)('$label: limit 7, an answer without usage counted above 7 is billed 7 output tokens', async ({ client, channel, stream }) => {
    channel.script({ omitUsage: true, reply: LONG_REPLY });
    const before = await balance();
    const delivered = await client.call(channel.model, stream, LIMIT);
    expect(LONG_REPLY.startsWith(delivered.text)).toBe(true);
    expect(countTokens(delivered.text)).toBeGreaterThan(LIMIT);
    const row = await expectBilled(before, LIMIT);
    if (delivered.usage) expect(delivered.usage).toEqual({ input: row.input_tokens, output: row.output_tokens });
  });

  // Anthropic's client always states max_tokens; an OpenAI or Gemini request without a limit sent to an
  // Anthropic channel gets the translation's default (4096), far above this answer.
  const uncapped = clients.filter((client) => client.name !== 'anthropic messages').flatMap((client) => channels.filter((channel) => channel.type === 'openai' || channel.type === 'anthropic').flatMap((channel) => [false, true].map((stream) => ({
    label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}`, client, channel, stream,
  }))));

  it.each(uncapped)('$label: without a limit, the count stands', async ({ client, channel, stream }) => {
    channel.script({ omitUsage: true, reply: LONG_REPLY });
    const before = await balance();
    const delivered = await client.call(channel.model, stream, null);
    expect(delivered.text).toBe(LONG_REPLY);
    await expectBilled(before, countTokens(LONG_REPLY));
  });

  // The limit is the one sent upstream, not the client's: a chat request without one gets Anthropic's
  // required max_tokens from the translation (4,096), and the simulator stops there, in words.
  it.each([false, true])('openai chat without a limit → anthropic channel (streamed %s): capped at the 4,096 max_tokens the translation sent', async (stream) => {
    const words = Array.from({ length: 4200 }, (_, i) => `harbour${i}`).join(' ');
    anthropicUpstream.script({ omitUsage: true, reply: words });
    const before = await balance();
    const delivered = await clients.find((client) => client.name === 'openai chat')!.call('m-anthropic', stream, null);
    expect(delivered.text.split(' ')).toHaveLength(4096);
    expect(countTokens(delivered.text)).toBeGreaterThan(4096);
    const row = await expectBilled(before, 4096);
    expect(delivered.usage).toEqual({ input: row.input_tokens, output: 4096 });
  });

  const usageRows = async () => {
    await gateway.recorder.flush();
    return Number((await gateway.database.db.selectFrom('usage_logs').select((eb) => eb.fn.countAll().as('n')).where('key_name', '=', 'usage').executeTakeFirstOrThrow()).n);
  };

  it.each(channels.filter((channel) => channel.type === 'openai' || channel.type === 'anthropic'))('a client leaving mid-stream after many events (openai chat → $type channel) is billed at most the limit', async (channel) => {
    // The upstream sends 7 events and then holds the stream open; the client reads 4 text chunks (counted
    // as 9 tokens) and leaves.
    channel.script({ omitUsage: true, reply: LONG_REPLY, stallAfterChunks: 7 });
    const before = await balance();
    const rowsBefore = await usageRows();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: channel.model, max_tokens: LIMIT, messages: [{ role: 'user', content: PROMPT }], stream: true }, { signal: controller.signal });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.delta.content && ++chunks === 4) {
        controller.abort();
        break;
      }
    }
    expect(countTokens(text)).toBeGreaterThan(LIMIT);
    for (let i = 0; i < 100 && (await usageRows()) === rowsBefore; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const row = await expectBilled(before, LIMIT);
    expect(row.error).toContain('client disconnected');
  });
});
