// Request ids come from a per-process random prefix and a counter (issue 16: randomUUID per call cost ~1 %
// of the gateway's CPU). What a user sees must not change: `req_` + 32 hex digits in `x-request-id`, never
// the same twice (also across two gateways writing usage logs side by side), and the id a caller got names
// exactly its row in the usage log.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('requestids');
let upstream: OpenAISimulator;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  const config = {
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'ida', balance: 10 }],
    keys: [{ name: 'ids', key: KEY, user: 'ida' }],
  };
  gateways.push(await startTestGateway(config), await startTestGateway(config));
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.dispose()));
  await upstream.close();
});

describe('request ids', () => {
  it('are req_ and 32 hex digits, distinct within and across gateways, and name the caller’s usage-log row', async () => {
    const seen: { gateway: TestGateway; id: string }[] = [];
    for (const gateway of gateways) {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
      for (let i = 0; i < 3; i++) {
        const { response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello ${i}` }] }).withResponse();
        seen.push({ gateway, id: response.headers.get('x-request-id')! });
      }
      // A refused call (unknown model) gets an id too, from the same sequence.
      const refused = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }) });
      expect(refused.status).toBe(404);
      seen.push({ gateway, id: refused.headers.get('x-request-id')! });
    }
    for (const { id } of seen) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(seen.map(({ id }) => id)).size).toBe(seen.length);
    for (const { gateway, id } of seen) {
      await gateway.recorder.flush();
      const rows = await gateway.database.db.selectFrom('usage_logs').select(['request_id', 'status']).where('request_id', '=', id).execute();
      expect(rows).toHaveLength(1);
    }
  });
});
