// One-hour cache writes (issue 30): Claude reports its cache writes split by lifetime, and the one-hour ones
// are billed at their own price. Every client format (OpenAI chat, Responses, Anthropic, Gemini, each
// through its official SDK) × every place Claude reports the split (Anthropic direct and on Vertex
// `cache_creation.ephemeral_1h_input_tokens`, Bedrock Converse `cacheDetails`) × streamed or whole: the
// usage row keeps the one-hour writes as their own quantity, the wallet is charged to the micro-dollar,
// and an Anthropic client is shown the split. A model without a one-hour price bills them as before.
import { generateKeyPairSync } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { startVertexSimulator, type VertexSimulator } from '../simulators/vertex-simulator.ts';
import { countWords } from '../simulators/simulator-answers.ts';
import type { ScriptStep } from '../simulators/simulator-script.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';
import { costOfLogRow } from '../../src/metering/log-cost.ts';

const KEY = testKey('cachelifetimes');
const PROMPT = 'Please tell me something about the quiet harbour town and its old stone lighthouse';
const CACHED = 2;
const CACHE_WRITE = 5;
const ONE_HOUR = 3;
// Per million tokens, in USD: a token of each kind costs a different whole number of micro-USD.
const PRICES = { input_per_mtok: 3, cached_input_per_mtok: 1, cache_write_per_mtok: 5, cache_write_1h_per_mtok: 11, output_per_mtok: 7 };

const PROJECT = 'gateway-sim-1';
const EMAIL = 'relay@gateway-sim-1.iam.gserviceaccount.com';
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const serviceAccount = JSON.stringify({ type: 'service_account', project_id: PROJECT, private_key_id: 'k1', private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), client_email: EMAIL, token_uri: 'https://oauth2.googleapis.com/token' });

let anthropicUpstream: AnthropicSimulator;
let bedrockUpstream: BedrockSimulator;
let vertexUpstream: VertexSimulator;
let gateway: TestGateway;

const channels = [
  { type: 'anthropic', model: 'c-anthropic', script: (step: ScriptStep) => anthropicUpstream.script(step) },
  { type: 'bedrock', model: 'c-bedrock', script: (step: ScriptStep) => bedrockUpstream.script(step) },
  { type: 'vertex', model: 'c-vertex', script: (step: ScriptStep) => vertexUpstream.script(step) },
];

beforeAll(async () => {
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  bedrockUpstream = await startBedrockSimulator();
  vertexUpstream = await startVertexSimulator({ project: PROJECT, serviceAccounts: { [EMAIL]: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
  gateway = await startTestGateway({
    channels: [
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['c-anthropic', 'c-default'], model_mapping: { 'c-anthropic': 'claude-sonnet-4-6', 'c-default': 'claude-sonnet-4-6' } },
      { name: 'bedrock', type: 'bedrock', base_url: bedrockUpstream.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`, models: ['c-bedrock'], model_mapping: { 'c-bedrock': 'anthropic.claude-sonnet-4-6-v1:0' } },
      { name: 'vertex', type: 'vertex', base_url: vertexUpstream.url, api_key: serviceAccount, vertex: { project: PROJECT, location: 'us-east5', token_url: `${vertexUpstream.url}/token` }, models: ['c-vertex'], model_mapping: { 'c-vertex': 'claude-sonnet-4-6' } },
    ],
    models: [
      ...channels.map((channel) => ({ id: channel.model, ...PRICES })),
      // No one-hour price: one-hour writes cost the cache-write price, as before issue 30.
      { id: 'c-default', input_per_mtok: 3, cached_input_per_mtok: 1, cache_write_per_mtok: 5, output_per_mtok: 7 },
    ],
    users: [{ name: 'hana', balance: 100 }],
    keys: [{ name: 'lifetimes', key: KEY, user: 'hana' }],
  });
  // The first Vertex call fetches an OAuth token, a request that would take the first scripted step.
  await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'c-vertex', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropicUpstream?.close();
  await bedrockUpstream?.close();
  await vertexUpstream?.close();
});

/** What the client received: the answer text, and the cache writes by lifetime it was shown, if any. */
interface Delivered {
  text: string;
  lifetimes?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
}

const clients: { name: string; call(model: string, stream: boolean): Promise<Delivered> }[] = [
  {
    name: 'openai chat',
    async call(model, stream) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
      if (!stream) return { text: (await client.chat.completions.create({ model, max_tokens: 100, messages })).choices[0]!.message.content ?? '' };
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model, max_tokens: 100, messages, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      return { text };
    },
  },
  {
    name: 'openai responses',
    async call(model, stream) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      if (!stream) return { text: (await client.responses.create({ model, input: PROMPT, max_output_tokens: 100 })).output_text };
      let text = '';
      for await (const event of await client.responses.create({ model, input: PROMPT, max_output_tokens: 100, stream: true })) {
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
      return { text };
    },
  },
  {
    name: 'anthropic messages',
    async call(model, stream) {
      const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      const params = { model, max_tokens: 100, messages: [{ role: 'user' as const, content: PROMPT }] };
      if (!stream) {
        const message = await client.messages.create(params);
        return { text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''), lifetimes: message.usage.cache_creation };
      }
      // The split rides on message_start from Anthropic itself, on message_delta from a translation
      // (which learns the usage only at the end); the last one seen is what the client was shown.
      let text = '';
      let lifetimes: Delivered['lifetimes'] = null;
      for await (const event of await client.messages.create({ ...params, stream: true })) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
        const usage = event.type === 'message_start' ? event.message.usage : event.type === 'message_delta' ? event.usage as Partial<Anthropic.Usage> : undefined;
        if (usage?.cache_creation) lifetimes = usage.cache_creation;
      }
      return { text, lifetimes };
    },
  },
  {
    name: 'gemini generateContent',
    async call(model, stream) {
      const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
      const params = { model, contents: PROMPT, config: { maxOutputTokens: 100 } };
      if (!stream) return { text: (await client.models.generateContent(params)).text ?? '' };
      let text = '';
      for await (const chunk of await client.models.generateContentStream(params)) text += chunk.text ?? '';
      return { text };
    },
  },
];

const balance = () => flushedBalance(gateway, 'hana');
const lastRow = () => lastUsageRow(gateway, 'lifetimes');

/** The charge in micro-USD at PRICES (a token × USD per Mtok is that many micro-USD), the one-hour writes at `oneHourPrice`. */
function expectedCharge(row: { input_tokens: number; cached_tokens: number; cache_write_tokens: number; cache_write_1h_tokens: number; output_tokens: number }, oneHourPrice: number): number {
  const plain = row.input_tokens - row.cached_tokens - row.cache_write_tokens;
  return plain * PRICES.input_per_mtok + row.cached_tokens * PRICES.cached_input_per_mtok
    + (row.cache_write_tokens - row.cache_write_1h_tokens) * PRICES.cache_write_per_mtok + row.cache_write_1h_tokens * oneHourPrice
    + row.output_tokens * PRICES.output_per_mtok;
}

const cells = clients.flatMap((client) => channels.flatMap((channel) => [false, true].map((stream) => ({
  label: `${client.name} → Claude on ${channel.type}, ${stream ? 'streamed' : 'whole'}`, client, channel, stream,
}))));

describe('one-hour cache writes', () => {
  it.each(cells)('$label: the one-hour writes are kept apart and billed at their price', async ({ client, channel, stream }) => {
    channel.script({ cachedTokens: CACHED, cacheWriteTokens: CACHE_WRITE, cacheWrite1hTokens: ONE_HOUR });
    const before = await balance();
    const delivered = await client.call(channel.model, stream);
    const row = await lastRow();
    const charged = before - (await balance());

    expect(delivered.text).toContain('simulator: you said');
    expect(row.status).toBe(200);
    expect(row.tokens_counted).toBe(0);
    expect(row.output_tokens).toBe(countWords(delivered.text));
    expect(row.cached_tokens).toBe(CACHED);
    expect(row.cache_write_tokens).toBe(CACHE_WRITE);
    expect(row.cache_write_1h_tokens).toBe(ONE_HOUR);
    expect(row.input_tokens).toBeGreaterThan(CACHED + CACHE_WRITE);
    const cost = expectedCharge(row, PRICES.cache_write_1h_per_mtok);
    expect(row.cost_micros).toBe(cost);
    expect(charged).toBe(cost);
    // The row alone, with the price in force, recomputes the charge (src/metering/log-cost.ts).
    expect(costOfLogRow(row, gateway.state.current.pricing.get(row.model))).toBe(cost);
    // Only Anthropic's format has a place for the split; its client sees it, passed through or translated.
    if (client.name === 'anthropic messages') expect(delivered.lifetimes).toEqual({ ephemeral_5m_input_tokens: CACHE_WRITE - ONE_HOUR, ephemeral_1h_input_tokens: ONE_HOUR });
  });

  it.each([false, true])('a model without a one-hour price bills one-hour writes at the cache-write price (streamed %s)', async (stream) => {
    anthropicUpstream.script({ cachedTokens: CACHED, cacheWriteTokens: CACHE_WRITE, cacheWrite1hTokens: ONE_HOUR });
    const before = await balance();
    await clients[0]!.call('c-default', stream);
    const row = await lastRow();
    expect(row.cache_write_1h_tokens).toBe(ONE_HOUR);
    const cost = expectedCharge(row, PRICES.cache_write_per_mtok);
    expect(row.cost_micros).toBe(cost);
    expect(before - (await balance())).toBe(cost);
  });

  it('five-minute writes only: nothing is billed at the one-hour price', async () => {
    anthropicUpstream.script({ cacheWriteTokens: CACHE_WRITE });
    const before = await balance();
    await clients[0]!.call('c-anthropic', false);
    const row = await lastRow();
    expect(row.cache_write_tokens).toBe(CACHE_WRITE);
    expect(row.cache_write_1h_tokens).toBe(0);
    expect(before - (await balance())).toBe(expectedCharge(row, PRICES.cache_write_1h_per_mtok));
  });
});
