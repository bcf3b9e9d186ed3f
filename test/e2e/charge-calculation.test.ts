// Every usage row can show how its charge was computed (issue 30): GET /api/logs/:id (and the admin's
// /api/admin/logs/:id) carries `calculation`: each quantity with its unit price and amount, the long-context
// tier, the group ratio and the total, as numbers and as sentences. Checked on a call that uses every kind
// of input token Claude bills (plain, cache reads, 5-minute and 1-hour writes) above a tier's threshold,
// under a group ratio; then a call below it, a failed call, a free model, and a price changed afterwards.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('calculation');
const ADMIN = testKey('calculationadmin');
const LONG = 'Please tell me something about the quiet harbour town, its old stone lighthouse, the fishing boats that leave before dawn and the gulls that follow them home again';
const SHORT = 'Please tell me about the harbour';
// Claude Sonnet with the 1M context, USD per Mtok; above 200k prompt tokens in life, above 20 here.
const SONNET = {
  input_per_mtok: 3, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6, output_per_mtok: 15,
  tiers: [{ above_prompt_tokens: 20, input_per_mtok: 6, cached_input_per_mtok: 0.6, cache_write_per_mtok: 7.5, cache_write_1h_per_mtok: 12, output_per_mtok: 22.5 }],
};

let upstream: AnthropicSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  gateway = await startTestGateway({
    groups: [{ name: 'partners', ratio: 0.8 }],
    channels: [{ name: 'anthropic', type: 'anthropic', base_url: upstream.url, api_key: 'sk-up-anthropic', groups: ['default', 'partners'], models: ['sonnet', 'free-sonnet'], model_mapping: { sonnet: 'claude-sonnet-4-6', 'free-sonnet': 'claude-sonnet-4-6' } }],
    models: [{ id: 'sonnet', ...SONNET }, { id: 'free-sonnet', free: true }],
    users: [{ name: 'carla', balance: 10 }, { name: 'root', role: 'admin', balance: 0 }],
    keys: [{ name: 'calculation', key: KEY, user: 'carla', group: 'partners' }, { name: 'root', key: ADMIN, user: 'root' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

const ask = (model: string, content: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 })
  .chat.completions.create({ model, max_tokens: 100, messages: [{ role: 'user', content }] });

interface Calculation {
  lines: { item: string; label: string; quantity: number; unit_price_usd: number; per: string; amount_usd: number; description: string }[];
  tier: { prompt_tokens: number; above_prompt_tokens: number | null } | null;
  subtotal_usd: number;
  group_ratio: number;
  total_usd: number;
  charged_usd: number;
  prices_changed: boolean;
  text: string;
}

async function calculationOfLastCall(path = '/api/logs', key = KEY): Promise<{ calculation: Calculation; cost_usd: number }> {
  const row = await lastUsageRow(gateway, 'calculation');
  const response = await fetch(`${gateway.url}${path}/${row.id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ calculation: Calculation; cost_usd: number }>;
}

describe('the calculation of a charge', () => {
  it('a long prompt with cache reads and both kinds of cache writes, under a group ratio: every line, the tier, the ratio and the total', async () => {
    upstream.script({ cachedTokens: 8, cacheWriteTokens: 4, cacheWrite1hTokens: 1 });
    await ask('sonnet', LONG);
    const row = await lastUsageRow(gateway, 'calculation');
    const { calculation, cost_usd } = await calculationOfLastCall();
    const plain = row.input_tokens - 12;
    expect(calculation.tier).toEqual({ prompt_tokens: row.input_tokens, above_prompt_tokens: 20 });
    expect(calculation.lines.map(({ item, quantity, unit_price_usd, per }) => ({ item, quantity, unit_price_usd, per }))).toEqual([
      { item: 'input_tokens', quantity: plain, unit_price_usd: 6, per: 'million tokens' },
      { item: 'cached_input_tokens', quantity: 8, unit_price_usd: 0.6, per: 'million tokens' },
      { item: 'cache_write_tokens', quantity: 3, unit_price_usd: 7.5, per: 'million tokens' },
      { item: 'cache_write_1h_tokens', quantity: 1, unit_price_usd: 12, per: 'million tokens' },
      { item: 'output_tokens', quantity: row.output_tokens, unit_price_usd: 22.5, per: 'million tokens' },
    ]);
    // In micro-USD: plain × 6 + 8 × 0.6 + 3 × 7.5 + 1 × 12 + output × 22.5, then × 0.8, rounded once.
    const subtotalMicros = plain * 6 + 4.8 + 22.5 + 12 + row.output_tokens * 22.5;
    expect(calculation.subtotal_usd * 1e6).toBeCloseTo(subtotalMicros, 6);
    expect(calculation.group_ratio).toBe(0.8);
    expect(calculation.total_usd).toBe(Math.round(subtotalMicros * 0.8) / 1e6);
    expect(calculation.total_usd).toBe(row.cost_micros / 1e6);
    expect(calculation.charged_usd).toBe(cost_usd);
    expect(calculation.prices_changed).toBe(false);
    expect(calculation.lines[1]!.label).toBe('input tokens read from the cache');
    expect(calculation.lines[1]!.description).toBe('8 input tokens read from the cache × $0.6 per million tokens = $0.0000048');
    expect(calculation.lines[3]!.description).toBe('1 input token written to the cache (1 hour) × $12 per million tokens = $0.000012');
    expect(calculation.text).toContain(`The prompt was ${row.input_tokens} tokens, above 20, so every token is priced at the long-context rates.`);
    expect(calculation.text).toContain('× group ratio 0.8 =');
    // The admin reads the same calculation.
    expect((await calculationOfLastCall('/api/admin/logs', ADMIN)).calculation).toEqual(calculation);
  });

  it('a short prompt: the standard prices, and the tier it did not reach', async () => {
    await ask('sonnet', SHORT);
    const row = await lastUsageRow(gateway, 'calculation');
    const { calculation } = await calculationOfLastCall();
    expect(calculation.tier).toEqual({ prompt_tokens: row.input_tokens, above_prompt_tokens: null });
    expect(calculation.lines.map((line) => [line.item, line.unit_price_usd])).toEqual([['input_tokens', 3], ['output_tokens', 15]]);
    expect(calculation.total_usd).toBe(row.cost_micros / 1e6);
    expect(calculation.text).toContain('within the standard prices (the long-context prices start above 20)');
  });

  it('a failed call and a free model: nothing charged, and said so', async () => {
    upstream.script({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'no' } } });
    await expect(ask('sonnet', SHORT)).rejects.toMatchObject({ status: 400 });
    expect((await calculationOfLastCall()).calculation).toMatchObject({ lines: [], total_usd: 0, charged_usd: 0, text: 'The call failed, so nothing was charged.' });
    await ask('free-sonnet', SHORT);
    expect((await calculationOfLastCall()).calculation).toMatchObject({ lines: [], total_usd: 0, charged_usd: 0, text: 'The model is free, so the call costs nothing.' });
  });

  it('after a price change, the calculation says the call was charged under the prices in force then', async () => {
    await ask('sonnet', SHORT);
    const row = await lastUsageRow(gateway, 'calculation');
    const put = await fetch(`${gateway.url}/api/admin/models`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: 'sonnet', ...SONNET, input_per_mtok: 4 }) });
    expect(put.status).toBe(200);
    const { calculation } = await calculationOfLastCall();
    expect(calculation.prices_changed).toBe(true);
    expect(calculation.charged_usd).toBe(row.cost_micros / 1e6);
    expect(calculation.total_usd).not.toBe(calculation.charged_usd);
    expect(calculation.text).toContain(`The model's prices have changed since this call: it was charged $${row.cost_micros / 1e6} under the prices in force then.`);
  });
});
