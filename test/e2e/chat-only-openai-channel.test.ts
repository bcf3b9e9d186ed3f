// An OpenAI-compatible server without /v1/responses (older vLLM, Ollama, most self-hosted servers): the
// channel declares `unsupported_endpoints: [responses]`, so Responses calls are translated to chat
// completions and their state is kept by the gateway — previous_response_id, GET, input_items and DELETE
// work as on OpenAI — and the upstream never sees a /v1/responses request. Without the declaration the
// gateway would pass the call through to an endpoint the server does not have.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('chatonly');
const OTHER_KEY = testKey('chatonlyother');
let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up-local' });
  gateway = await startTestGateway({
    channels: [{ name: 'local', type: 'openai', base_url: upstream.url, api_key: 'sk-up-local', models: ['local-llm'], unsupported_endpoints: ['responses'] }],
    models: [{ id: 'local-llm', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'lou', balance: 100 }, { name: 'max', balance: 100 }],
    keys: [{ name: 'lou', key: KEY, user: 'lou' }, { name: 'max', key: OTHER_KEY, user: 'max' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

describe('a chat-only OpenAI-compatible channel', () => {
  it('serves the Responses API through chat completions, with the state kept by the gateway', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const sent = upstream.requests.length;
    const first = await client.responses.create({ model: 'local-llm', input: 'Name a lighthouse' });
    expect(first.status).toBe('completed');
    expect(first.output_text).toContain('Name a lighthouse');

    let streamedText = '';
    let secondId = '';
    for await (const event of await client.responses.create({ model: 'local-llm', input: 'and another one', previous_response_id: first.id, stream: true })) {
      if (event.type === 'response.output_text.delta') streamedText += event.delta;
      if (event.type === 'response.completed') secondId = event.response.id;
    }
    expect(streamedText).toContain('and another one');
    expect(secondId).toMatch(/^resp_/);

    const seen = upstream.requests.slice(sent);
    expect(seen.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    // The second turn carried the first one's conversation, rebuilt by the gateway.
    const history = JSON.stringify((seen[1]!.body as { messages: unknown[] }).messages);
    expect(history).toContain('Name a lighthouse');
    expect(history).toContain('and another one');

    const kept = await client.responses.retrieve(secondId);
    expect(kept.previous_response_id).toBe(first.id);
    const items = await client.responses.inputItems.list(secondId);
    expect(JSON.stringify(items.data)).toContain('and another one');

    // Another user cannot read or continue it.
    const other = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: OTHER_KEY, maxRetries: 0 });
    await expect(other.responses.retrieve(secondId)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.create({ model: 'local-llm', input: 'x', previous_response_id: secondId })).rejects.toMatchObject({ status: 404 });

    await client.responses.delete(secondId);
    await expect(client.responses.retrieve(secondId)).rejects.toMatchObject({ status: 404 });
    expect(upstream.requests.slice(sent).some((request) => request.path.startsWith('/v1/responses'))).toBe(false);
  });

  it('shows the setting in the admin view of the channel', async () => {
    const row = await gateway.database.db.selectFrom('channels').select('settings_json').where('name', '=', 'local').executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings_json)).toMatchObject({ unsupportedEndpoints: ['responses'] });
  });
});
