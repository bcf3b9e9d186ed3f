// A model an upstream serves only through /v1/responses (OpenAI's o1-pro and codex models answer chat
// completions with a 404), reached by chat clients: the OpenAI SDK's chat.completions, the Anthropic SDK's
// messages and the Gemini SDK's generateContent, streamed and not. The channel's `chat_format:
// openai-responses` makes the gateway translate each chat call to a Responses call; the same model on a
// channel without the flag shows the upstream's refusal. Usage is billed from the Responses usage the
// upstream reports (cached tokens priced apart), or counted when it reports none.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { countWords } from '../simulators/simulator-answers.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('responsesonly');
const PROMPT = 'Please describe the lighthouse on the northern cape';
const UPSTREAM_MODEL = 'o-pro-sim';
const CACHED = 2;
const PRICES = { input_per_mtok: 4, cached_input_per_mtok: 1, output_per_mtok: 8 };

let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up-pro', responsesOnlyModels: [UPSTREAM_MODEL] });
  gateway = await startTestGateway({
    channels: [
      { name: 'pro', type: 'openai', base_url: upstream.url, api_key: 'sk-up-pro', models: ['m-pro'], model_mapping: { 'm-pro': UPSTREAM_MODEL }, chat_format: 'openai-responses' },
      { name: 'plain', type: 'openai', base_url: upstream.url, api_key: 'sk-up-pro', models: ['m-plain'], model_mapping: { 'm-plain': UPSTREAM_MODEL } },
    ],
    models: [{ id: 'm-pro', ...PRICES }, { id: 'm-plain', ...PRICES }],
    users: [{ name: 'rosa', balance: 100 }],
    keys: [{ name: 'pro', key: KEY, user: 'rosa' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

interface Delivered { text: string; usage: { input: number; output: number } | null }

const clients: { name: string; call(model: string, stream: boolean): Promise<Delivered> }[] = [
  {
    name: 'openai chat.completions',
    async call(model, stream) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
      if (!stream) {
        const completion = await client.chat.completions.create({ model, max_tokens: 100, messages });
        return { text: completion.choices[0]!.message.content ?? '', usage: completion.usage ? { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens } : null };
      }
      let text = '';
      let usage: Delivered['usage'] = null;
      for await (const chunk of await client.chat.completions.create({ model, max_tokens: 100, messages, stream: true, stream_options: { include_usage: true } })) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
      }
      return { text, usage };
    },
  },
  {
    name: 'anthropic messages',
    async call(model, stream) {
      const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      const params = { model, max_tokens: 100, messages: [{ role: 'user' as const, content: PROMPT }] };
      const shown = (usage: Partial<Anthropic.Usage>) => (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
      if (!stream) {
        const message = await client.messages.create(params);
        return { text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''), usage: { input: shown(message.usage), output: message.usage.output_tokens } };
      }
      const streamed = client.messages.stream(params);
      let text = '';
      streamed.on('text', (delta) => (text += delta));
      const message = await streamed.finalMessage();
      return { text, usage: { input: shown(message.usage), output: message.usage.output_tokens } };
    },
  },
  {
    name: 'gemini generateContent',
    async call(model, stream) {
      const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
      const params = { model, contents: PROMPT, config: { maxOutputTokens: 100 } };
      const shown = (meta: { promptTokenCount?: number; candidatesTokenCount?: number } | undefined) => (meta ? { input: meta.promptTokenCount ?? 0, output: meta.candidatesTokenCount ?? 0 } : null);
      if (!stream) {
        const response = await client.models.generateContent(params);
        return { text: response.text ?? '', usage: shown(response.usageMetadata) };
      }
      let text = '';
      let usage: Delivered['usage'] = null;
      for await (const chunk of await client.models.generateContentStream(params)) {
        text += chunk.text ?? '';
        if (chunk.usageMetadata?.candidatesTokenCount !== undefined) usage = shown(chunk.usageMetadata);
      }
      return { text, usage };
    },
  },
];

const balance = () => flushedBalance(gateway, 'rosa');
const lastRow = () => lastUsageRow(gateway, 'pro');

const cells = clients.flatMap((client) => [false, true].flatMap((stream) => [true, false].map((reports) => ({
  label: `${client.name}, ${stream ? 'streamed' : 'whole'}, upstream ${reports ? 'reports usage' : 'omits usage'}`,
  client,
  stream,
  reports,
}))));

describe('a chat client reaching a model served only through /v1/responses', () => {
  it.each(clients)('$name: the same model on a channel without chat_format shows the upstream refusing chat', async (client) => {
    await expect(client.call('m-plain', false)).rejects.toMatchObject({ status: 404 });
    expect(upstream.requests.at(-1)!.path).toBe('/v1/chat/completions');
  });

  it.each(cells)('$label', async ({ client, stream, reports }) => {
    upstream.script(reports ? { cachedTokens: CACHED } : { omitUsage: true });
    const before = await balance();
    const sent = upstream.requests.length;
    const delivered = await client.call('m-pro', stream);
    const row = await lastRow();
    const charged = before - (await balance());

    // One upstream call, on /v1/responses, as a Responses request for the mapped model.
    const seen = upstream.requests.slice(sent);
    expect(seen.map((request) => request.path)).toEqual(['/v1/responses']);
    const body = seen[0]!.body as { model?: unknown; input?: unknown; stream?: unknown; messages?: unknown };
    expect(body.model).toBe(UPSTREAM_MODEL);
    expect(body.messages).toBeUndefined();
    expect(JSON.stringify(body.input)).toContain(PROMPT);
    expect(body.stream === true).toBe(stream);

    expect(delivered.text).toContain('Hello from the OpenAI simulator: you said');
    expect(delivered.text).toContain(PROMPT);
    expect(row.status).toBe(200);
    expect(row.model).toBe('m-pro');
    if (reports) {
      expect(row.tokens_counted).toBe(0);
      expect(row.output_tokens).toBe(countWords(delivered.text));
      expect(row.cached_tokens).toBe(CACHED);
    } else {
      expect(row.tokens_counted).toBe(1);
      expect(row.output_tokens).toBeGreaterThan(0);
      expect(row.cached_tokens).toBe(0);
    }
    expect(row.input_tokens).toBeGreaterThan(row.cached_tokens);
    if (delivered.usage) expect(delivered.usage).toEqual({ input: row.input_tokens, output: row.output_tokens });
    const expectedCost = (row.input_tokens - row.cached_tokens) * PRICES.input_per_mtok + row.cached_tokens * PRICES.cached_input_per_mtok + row.output_tokens * PRICES.output_per_mtok;
    expect(row.cost_micros).toBe(expectedCost);
    expect(charged).toBe(expectedCost);
    expect(charged).toBeGreaterThan(0);
  });
});
