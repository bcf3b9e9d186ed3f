// Issue 28 item 4: an Anthropic-format stream translated from another provider carries the prompt's input
// tokens in message_start, as Anthropic's own does (LangChain's ChatAnthropic reads them there): the
// upstream's figure when it has told it before the answer (Gemini's first chunk), else the gateway's local
// count, which message_delta corrects with the upstream's final figure.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { lastUsageRow } from '../helpers/usage-rows.ts';
import { anthropicMessagesRequestFacts } from '../../src/formats/anthropic-messages/anthropic-messages-request-facts.ts';

const KEY = testKey('streamusage');
let openaiUpstream: OpenAISimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['gpt-up'] },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-up'], model_mapping: { 'gemini-up': 'gemini-2.5-flash' } },
    ],
    models: [{ id: 'gpt-up', input_per_mtok: 1, output_per_mtok: 2 }, { id: 'gemini-up', input_per_mtok: 0.3, output_per_mtok: 2.5 }],
    users: [{ name: 'lee', balance: 100 }],
    keys: [{ name: 'langchain', key: KEY, user: 'lee' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await geminiUpstream?.close();
});

const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });

const body = {
  max_tokens: 100,
  system: 'You are a careful assistant who answers questions about the weather and nothing else.',
  messages: [
    { role: 'user' as const, content: 'Hello there, I would like to know a few things about the weather this week in Lisbon.' },
  ],
};

/** The SDK's stream helper, keeping message_start's and message_delta's usage as they arrived. */
async function streamed(model: string) {
  const stream = client().messages.stream({ model, ...body });
  let startUsage: Anthropic.Usage | undefined;
  let deltaUsage: Anthropic.MessageDeltaUsage | undefined;
  stream.on('streamEvent', (event) => {
    if (event.type === 'message_start') startUsage = { ...event.message.usage };
    if (event.type === 'message_delta') deltaUsage = event.usage;
  });
  const message = await stream.finalMessage();
  return { message, startUsage: startUsage!, deltaUsage: deltaUsage! };
}

describe('input tokens in a translated Anthropic stream', () => {
  it('from an OpenAI channel: message_start has the local count, message_delta and the final message the upstream\'s', async () => {
    const { message, startUsage, deltaUsage } = await streamed('gpt-up');
    const localCount = anthropicMessagesRequestFacts.promptTokens({ model: 'gpt-up', stream: true, ...body });
    expect(localCount).toBeGreaterThan(20);
    expect(startUsage.input_tokens).toBe(localCount);
    // The OpenAI simulator's prompt_tokens: 3 + per message 3 + one per word (system and user).
    const upstreamCount = 3 + (3 + 14) + (3 + 17);
    expect(upstreamCount).not.toBe(localCount);
    expect(deltaUsage.input_tokens).toBe(upstreamCount);
    expect(message.usage.input_tokens).toBe(upstreamCount);
    expect(Number((await lastUsageRow(gateway, 'langchain')).input_tokens)).toBe(upstreamCount);
  });

  it('from a Gemini channel: message_start already has Gemini\'s own figure from its first chunk', async () => {
    const { message, startUsage } = await streamed('gemini-up');
    const row = await lastUsageRow(gateway, 'langchain');
    expect(row.model).toBe('gemini-up');
    expect(Number(row.input_tokens)).toBeGreaterThan(0);
    expect(startUsage.input_tokens).toBe(Number(row.input_tokens));
    expect(message.usage.input_tokens).toBe(Number(row.input_tokens));
  });

  it('is in the raw message_start event on the wire', async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'gpt-up', stream: true, ...body }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const first = text.split('\n\n')[0]!;
    expect(first.split('\n')[0]).toBe('event: message_start');
    const event = JSON.parse(first.split('\n')[1]!.slice('data: '.length)) as { message: { usage: Record<string, number> } };
    expect(event.message.usage).toEqual({
      input_tokens: anthropicMessagesRequestFacts.promptTokens({ model: 'gpt-up', stream: true, ...body }),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 0,
    });
  });
});
