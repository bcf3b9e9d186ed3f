// An upstream (or a CDN in front of it) may send an interim 1xx answer, e.g. 103 Early Hints, before the
// real one. undici hands each to the dispatch handler's onResponseStart; the gateway must wait for the final
// answer. (After the handler let go of its promise's settlers at the first onResponseStart, the second one
// threw, undici destroyed the socket, and every such call failed with 502 "could not be reached".)
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('earlyhints');
const UPSTREAM_KEY = 'sk-upstream-hints-0001';
let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
    models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'hana', balance: 100 }],
    keys: [{ name: 'main', key: KEY, user: 'hana' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

async function rowsFor(model: string, count: number) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const rows = await gateway.database.db.selectFrom('usage_logs').select(['status', 'error_code', 'cost_micros', 'stream']).where('model', '=', model).execute();
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('an upstream that sends 103 Early Hints before its answer', () => {
  it('answers and charges a whole call and a streamed one as if the hint had not been there', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    upstream.script({ earlyHints: true, reply: 'hinted whole answer' });
    const whole = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(whole.choices[0]!.message.content).toBe('hinted whole answer');

    upstream.script({ earlyHints: true, reply: 'hinted streamed answer' });
    const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('hinted streamed answer');

    // One upstream request per call: the hint did not fail the first attempt into a retry.
    expect(upstream.requests.length).toBe(2);
    const rows = await rowsFor('gpt-4o', 2);
    expect(rows.map((row) => ({ status: row.status, error_code: row.error_code }))).toEqual([{ status: 200, error_code: null }, { status: 200, error_code: null }]);
    for (const row of rows) expect(Number(row.cost_micros)).toBeGreaterThan(0);
  });
});
