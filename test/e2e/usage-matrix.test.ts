// The usage matrix through the built-in channel types (openai, anthropic, gemini, bedrock): the cells are
// usage-matrix-suite.ts's (every client format through its official SDK × each channel × streamed or not ×
// the upstream reporting usage or omitting it, then output limits), and the same cells run through a fifth
// format registered at run time in usage-matrix-toy.test.ts. Legacy completions and embeddings, reported or
// not, and the limit an Anthropic translation writes are checked here the same way.
import OpenAI from 'openai';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { countWords } from '../simulators/simulator-answers.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';
import { matrixClients, PRICES, PROMPT, usageMatrixSuite, type MatrixChannel, type MatrixSetup } from './usage-matrix-suite.ts';

const KEY = testKey('usagematrix');

let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let bedrockUpstream: BedrockSimulator;
let gateway: TestGateway;

const channels: MatrixChannel[] = [
  { type: 'openai', model: 'm-openai', script: (step) => openaiUpstream.script(step), reportsCacheWrite: true, uncappedCells: true },
  { type: 'anthropic', model: 'm-anthropic', script: (step) => anthropicUpstream.script(step), reportsCacheWrite: true, uncappedCells: true },
  { type: 'gemini', model: 'm-gemini', script: (step) => geminiUpstream.script(step), reportsCacheWrite: false, uncappedCells: false },
  { type: 'bedrock', model: 'm-bedrock', script: (step) => bedrockUpstream.script(step), reportsCacheWrite: true, uncappedCells: false },
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

const setup: MatrixSetup = { gateway: () => gateway, key: KEY, keyName: 'usage', user: 'ursula' };
usageMatrixSuite(setup, () => channels);

const balance = () => flushedBalance(gateway, 'ursula');
const lastRow = () => lastUsageRow(gateway, 'usage');

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

describe('the output limit a translation writes', () => {
  // The limit is the one sent upstream, not the client's: a chat request without one gets Anthropic's
  // required max_tokens from the translation (4,096), and the simulator stops there, in words.
  it.each([false, true])('openai chat without a limit → anthropic channel (streamed %s): capped at the 4,096 max_tokens the translation sent', async (stream) => {
    const words = Array.from({ length: 4200 }, (_, i) => `harbour${i}`).join(' ');
    anthropicUpstream.script({ omitUsage: true, reply: words });
    const before = await balance();
    const delivered = await matrixClients(setup).find((client) => client.name === 'openai chat')!.call('m-anthropic', stream, null);
    expect(delivered.text.split(' ')).toHaveLength(4096);
    expect(countTokens(delivered.text)).toBeGreaterThan(4096);
    const row = await lastRow();
    expect(row.tokens_counted).toBe(1);
    expect(row.output_tokens).toBe(4096);
    const cost = row.input_tokens * PRICES.input_per_mtok + 4096 * PRICES.output_per_mtok;
    expect(row.cost_micros).toBe(cost);
    expect(before - (await balance())).toBe(cost);
    expect(delivered.usage).toEqual({ input: row.input_tokens, output: 4096 });
  });
});
