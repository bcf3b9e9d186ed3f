// Issue 28 item 7: every token-counting call (Claude Code calls count_tokens often; Gemini CLI countTokens)
// leaves its usage-log row, at zero cost and zero tokens, and the wallet does not move. The official SDKs
// count through the gateway; the rows are read back from the database.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import type { GeminiSimulator } from '../simulators/gemini-simulator.ts';
import type { OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startThreeFamilies, type ThreeFamilies } from '../helpers/three-family-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('countlog');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

let families: ThreeFamilies;

beforeAll(async () => {
  families = await startThreeFamilies({ user: { name: 'ida', balance: 10 }, key: { name: 'counter', key: KEY } });
  ({ openai: openaiUpstream, anthropic: anthropicUpstream, gemini: geminiUpstream, gateway } = families);
});

afterAll(async () => {
  await families?.close();
});

const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'one two three four five six' }];

async function channelId(name: string): Promise<number> {
  const row = await gateway.database.db.selectFrom('channels').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return Number(row.id);
}

describe('token counting is logged at zero cost', () => {
  it('Anthropic count_tokens counted exactly by an Anthropic channel: a row naming the channel, free', async () => {
    const before = await flushedBalance(gateway, 'ida');
    const { data, response } = await anthropic().messages.countTokens({ model: 'claude-up', messages }).withResponse();
    expect(data.input_tokens).toBe(6);
    const row = await lastUsageRow(gateway, 'counter');
    expect(row).toMatchObject({
      request_id: response.headers.get('x-request-id'), endpoint: '/v1/messages/count_tokens', inbound_format: 'anthropic-messages',
      model: 'claude-up', upstream_model: 'claude-sonnet-4-6', status: 200, error: null,
    });
    expect(Number(row.channel_id)).toBe(await channelId('anthropic'));
    expect([Number(row.cost_micros), Number(row.input_tokens), Number(row.output_tokens)]).toEqual([0, 0, 0]);
    expect(await flushedBalance(gateway, 'ida')).toBe(before);
  });

  it('Anthropic count_tokens estimated for a GPT model: a row without a channel, free', async () => {
    const { response } = await anthropic().messages.countTokens({ model: 'gpt-up', messages }).withResponse();
    expect(response.headers.get('x-gateway-token-count')).toBe('estimate');
    const row = await lastUsageRow(gateway, 'counter');
    expect(row).toMatchObject({ request_id: response.headers.get('x-request-id'), endpoint: '/v1/messages/count_tokens', model: 'gpt-up', status: 200, channel_id: null });
    expect(Number(row.cost_micros)).toBe(0);
  });

  it('Gemini countTokens: a row at zero cost', async () => {
    const counted = await google().models.countTokens({ model: 'gemini-up', contents: 'one two three' });
    expect(counted.totalTokens).toBeGreaterThan(0);
    const row = await lastUsageRow(gateway, 'counter');
    expect(row).toMatchObject({ endpoint: '/v1beta/models/{model}:countTokens', inbound_format: 'gemini-generate', model: 'gemini-up', status: 200 });
    expect(Number(row.channel_id)).toBe(await channelId('gemini'));
    expect(Number(row.cost_micros)).toBe(0);
  });

  it('a refused count (a model nobody serves) is logged with its status, in Anthropic\'s error shape', async () => {
    const error = await anthropic().messages.countTokens({ model: 'no-such-model', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    const row = await lastUsageRow(gateway, 'counter');
    expect(row).toMatchObject({ endpoint: '/v1/messages/count_tokens', model: 'no-such-model', status: 404 });
    expect(Number(row.cost_micros)).toBe(0);
  });
});
