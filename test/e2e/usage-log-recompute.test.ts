// Every billed quantity is in the usage log: for a sample call of every price kind (tokens of each kind,
// images by size and quality, audio milliseconds, characters, searches, requests) under a group ratio, the
// cost recomputed from the row alone and the model's price in force equals the cost that was charged.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startRerankSimulator } from '../simulators/rerank-simulator.ts';
import type { Simulator } from '../simulators/simulator-core.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { costOfLogRow } from '../../src/metering/log-cost.ts';
import { explainCharge } from '../../src/metering/charge-explanation.ts';

const KEY = testKey('recompute');
const UPSTREAM_KEY = 'sk-upstream-recompute';
let upstream: OpenAISimulator;
let rerank: Simulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  rerank = await startRerankSimulator({ apiKey: 'sk-rerank' });
  const groups = ['default', 'premium'];
  gateway = await startTestGateway({
    groups: [{ name: 'premium', ratio: 1.5 }],
    channels: [
      { name: 'openai', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, groups, models: ['chat-all-kinds', 'dall-e-3', 'tts-1', 'whisper-1'] },
      { name: 'jina', type: 'jina', base_url: rerank.url, api_key: 'sk-rerank', groups, models: ['jina-reranker-v2'] },
      { name: 'cohere', type: 'cohere', base_url: rerank.url, api_key: 'sk-rerank', groups, models: ['rerank-v3.5'] },
    ],
    models: [
      { id: 'chat-all-kinds', input_per_mtok: 3, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75, output_per_mtok: 15, per_request: 0.0007 },
      { id: 'dall-e-3', per_image: { '1024x1024': 0.04, '1024x1024/hd': 0.08, '1792x1024/hd': 0.12 } },
      { id: 'tts-1', per_mchars: 15 },
      { id: 'whisper-1', per_audio_minute: 0.006 },
      { id: 'jina-reranker-v2', per_request: 0.001 },
      { id: 'rerank-v3.5', per_search: 0.002 },
    ],
    users: [{ name: 'rita', balance: 50 }],
    keys: [{ name: 'recompute', key: KEY, user: 'rita', group: 'premium' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
  await rerank?.close();
});

const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

async function lastRow() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}

/** The cost of the row from the row and the price in force, and the check that it was what was charged. */
async function expectRecomputable() {
  const row = await lastRow();
  expect(row.status).toBe(200);
  expect(row.requests).toBe(1);
  expect(row.ratio_ppm).toBe(1_500_000);
  expect(row.cost_micros).toBeGreaterThan(0);
  expect(costOfLogRow(row, gateway.state.current.pricing.get(row.model))).toBe(row.cost_micros);
  // Its calculation in words adds up: the lines to the subtotal, the subtotal × ratio to the charge.
  const calculation = explainCharge(row, gateway.state.current.pricing.get(row.model), false);
  expect(calculation.total_usd).toBe(row.cost_micros / 1e6);
  expect(calculation.prices_changed).toBe(false);
  expect(Math.round(calculation.subtotal_usd * 1.5 * 1e6)).toBe(row.cost_micros);
  expect(calculation.lines.length).toBeGreaterThan(0);
  return row;
}

describe('a usage-log row holds everything its cost came from', () => {
  it('tokens of every kind (plain, cached, cache-write, output, reasoning) and the per-request price', async () => {
    upstream.script({ cachedTokens: 3, cacheWriteTokens: 2 });
    await client().chat.completions.create({ model: 'chat-all-kinds', messages: [{ role: 'user', content: 'one two three four five six seven' }] });
    const row = await expectRecomputable();
    expect(row).toMatchObject({ cached_tokens: 3, cache_write_tokens: 2, tokens_counted: 0 });
    // (plain × 3 + 3 × 0.3 + 2 × 3.75 + output × 15) per Mtok + 700 per request, × 1.5
    const plain = row.input_tokens - 5;
    expect(row.cost_micros).toBe(Math.round((plain * 3 + 3 * 0.3 + 2 * 3.75 + row.output_tokens * 15 + 700) * 1.5));
  });

  it('tokens the gateway counted because the upstream reported none', async () => {
    upstream.script({ omitUsage: true });
    await client().chat.completions.create({ model: 'chat-all-kinds', messages: [{ role: 'user', content: 'count me please' }] });
    const row = await expectRecomputable();
    expect(row.tokens_counted).toBe(1);
    expect(explainCharge(row, gateway.state.current.pricing.get(row.model), false).text).toContain('the gateway counted the tokens it sent and delivered');
    expect(row.output_tokens).toBeGreaterThan(0);
  });

  it('images by size and quality', async () => {
    await client().images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', size: '1792x1024', quality: 'hd' });
    const row = await expectRecomputable();
    expect(row).toMatchObject({ image_count: 1, image_size: '1792x1024', image_quality: 'hd', cost_micros: 180_000 });
  });

  it('characters spoken', async () => {
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there, listener.' });
    await response.arrayBuffer();
    const row = await expectRecomputable();
    expect(row.characters).toBe(22);
  });

  it('audio milliseconds transcribed', async () => {
    const file = await toFile(Buffer.from('RIFF----WAVEfmt ' + 'a'.repeat(200)), 'speech.wav', { type: 'audio/wav' });
    await client().audio.transcriptions.create({ model: 'whisper-1', file });
    const row = await expectRecomputable();
    expect(row.audio_ms).toBe(3000);
    expect(row.cost_micros).toBe(Math.round(6_000 * 3 / 60 * 1.5));
  });

  it('searches and requests (rerank)', async () => {
    const rerankCall = (model: string) => fetch(`${gateway.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, query: 'red apples', documents: ['bananas', 'red apples'] }),
    }).then((response) => response.json());
    await rerankCall('rerank-v3.5');
    expect((await expectRecomputable()).searches).toBe(1);
    await rerankCall('jina-reranker-v2');
    expect((await expectRecomputable()).cost_micros).toBe(1_500);
  });

  it('a failed call: no request billed, nothing charged, the gateway error code kept', async () => {
    const boom = { status: 400, body: { error: { message: 'bad thing', type: 'invalid_request_error', param: null, code: null } } };
    upstream.script(boom);
    await expect(client().chat.completions.create({ model: 'chat-all-kinds', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 400 });
    const row = await lastRow();
    expect(row).toMatchObject({ status: 400, requests: 0, cost_micros: 0, error_code: 'GW_ERR_UPSTREAM_STATUS' });
    expect(costOfLogRow(row, gateway.state.current.pricing.get(row.model))).toBe(0);
    expect(JSON.parse(row.attempts_json!)[0]).toMatchObject({ status: 400, code: 'GW_ERR_UPSTREAM_STATUS' });
  });
});
