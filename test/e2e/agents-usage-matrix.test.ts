// The usage matrix for the request shapes coding agents send (issue 28): @anthropic-ai/sdk with what Claude
// Code puts in a call (a cached system prompt, a system message inside messages, thinking, a function tool next
// to the web_search server tool, metadata.user_id) → every channel type, streamed or not, the upstream
// reporting usage or omitting it. In every cell the usage row holds what the client was shown, the wallet is
// charged the row's cost, and a stream's message_start already carries input tokens.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import type { ScriptStep } from '../simulators/simulator-script.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('agentusage');
const PRICES = { input_per_mtok: 4, cached_input_per_mtok: 1, cache_write_per_mtok: 5, output_per_mtok: 8 };
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let bedrockUpstream: BedrockSimulator;
let gateway: TestGateway;

const channels: { type: string; model: string; script(step: ScriptStep): void }[] = [
  { type: 'openai', model: 'a-openai', script: (step) => openaiUpstream.script(step) },
  { type: 'anthropic', model: 'a-anthropic', script: (step) => anthropicUpstream.script(step) },
  { type: 'gemini', model: 'a-gemini', script: (step) => geminiUpstream.script(step) },
  { type: 'bedrock', model: 'a-bedrock', script: (step) => bedrockUpstream.script(step) },
];

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  bedrockUpstream = await startBedrockSimulator();
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['a-openai'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['a-anthropic'], model_mapping: { 'a-anthropic': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['a-gemini'], model_mapping: { 'a-gemini': 'gemini-2.5-flash' } },
      {
        name: 'bedrock', type: 'bedrock', base_url: bedrockUpstream.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`,
        models: ['a-bedrock'], model_mapping: { 'a-bedrock': 'us.anthropic.claude-sonnet-4-20250514-v1:0' },
      },
    ],
    models: channels.map((channel) => ({ id: channel.model, ...PRICES })),
    users: [{ name: 'otto', balance: 100 }],
    keys: [{ name: 'agent', key: KEY, user: 'otto' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
  await bedrockUpstream?.close();
});

const agentRequest = (model: string) => ({
  model,
  max_tokens: 2048,
  system: [{ type: 'text' as const, text: 'You are Claude Code, a coding agent.', cache_control: { type: 'ephemeral' as const } }],
  messages: [
    { role: 'user' as const, content: 'Open the project' },
    { role: 'assistant' as const, content: 'The project is open.' },
    { role: 'system' as const, content: 'Reminder: keep answers short.' },
    { role: 'user' as const, content: 'Please tell me something about the quiet harbour town' },
  ],
  thinking: { type: 'enabled' as const, budget_tokens: 1024 },
  tools: [
    { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } },
    { type: 'web_search_20250305' as const, name: 'web_search' as const },
  ],
  metadata: { user_id: 'user_1_account__session_matrix' },
});

/** Anthropic's input_tokens leaves cache reads and writes out; the whole prompt is the three together. */
const wholeInput = (usage: Partial<Anthropic.Usage> | undefined) => !usage ? 0 : (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);

const cells = channels.flatMap((channel) => [false, true].flatMap((stream) => [true, false].map((reports) => ({
  label: `Claude Code's request → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}, upstream ${reports ? 'reports usage' : 'omits usage'}`,
  channel, stream, reports,
}))));

describe('usage matrix of coding-agent requests', () => {
  it.each(cells)('$label', async ({ channel, stream, reports }) => {
    channel.script(reports ? { cachedTokens: 2 } : { omitUsage: true });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const before = await flushedBalance(gateway, 'otto');
    let shown: { input: number; output: number };
    let text: string;
    if (stream) {
      // The raw events: a passthrough stream whose upstream omitted usage has none for the SDK's accumulator.
      let startInput = 0;
      shown = { input: 0, output: 0 };
      text = '';
      for await (const event of await client.messages.create({ ...agentRequest(channel.model), stream: true })) {
        if (event.type === 'message_start') startInput = wholeInput(event.message.usage);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
        if (event.type === 'message_delta' && event.usage) shown = { input: wholeInput(event.usage as Partial<Anthropic.Usage>), output: event.usage.output_tokens };
      }
      // A passthrough stream is the upstream's own bytes: its message_start is as Anthropic sent it.
      if (reports || channel.type !== 'anthropic') expect(startInput).toBeGreaterThan(0);
    } else {
      const message = await client.messages.create(agentRequest(channel.model));
      shown = { input: wholeInput(message.usage), output: message.usage?.output_tokens ?? 0 };
      text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    }
    const row = await lastUsageRow(gateway, 'agent');
    const charged = before - (await flushedBalance(gateway, 'otto'));
    expect(text).toContain('simulator: you said "Please tell me something about the quiet harbour town"');
    expect([row.status, row.model, row.tokens_counted]).toEqual([200, channel.model, reports ? 0 : 1]);
    expect(row.cached_tokens).toBe(reports ? 2 : 0);
    // A passthrough answer whose upstream omitted usage shows the client none; any other shows the row.
    if (reports || channel.type !== 'anthropic') expect(shown).toEqual({ input: row.input_tokens, output: row.output_tokens });
    const plainInput = row.input_tokens - row.cached_tokens - row.cache_write_tokens;
    const cost = plainInput * PRICES.input_per_mtok + row.cached_tokens * PRICES.cached_input_per_mtok + row.cache_write_tokens * PRICES.cache_write_per_mtok + row.output_tokens * PRICES.output_per_mtok;
    expect(row.cost_micros).toBe(cost);
    expect(charged).toBe(cost);
    expect(charged).toBeGreaterThan(0);
  });
});
