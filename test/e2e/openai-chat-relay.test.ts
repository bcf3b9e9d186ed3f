// End to end: the official openai SDK → the gateway on a real port → the OpenAI simulator on a real port.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const UPSTREAM_KEY = 'sk-upstream-main-0001';
const keys = {
  main: testKey('alicemain'),
  budget: testKey('alicebudget'),
  restricted: testKey('alicerestricted'),
  expired: testKey('aliceexpired'),
  elsewhere: testKey('aliceelsewhere'),
  disabled: testKey('alicedisabled'),
};

let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    groups: [{ name: 'budget', ratio: 0.5 }],
    channels: [
      {
        name: 'openai-main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY,
        models: ['gpt-4o-mini', 'gpt-4o'], model_mapping: { 'gpt-4o-mini': 'gpt-4o-mini-2024-07-18' },
      },
      { name: 'openai-budget', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['cheap-model'], groups: ['budget'] },
    ],
    models: [
      { id: 'gpt-4o-mini', owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 },
      { id: 'gpt-4o', owned_by: 'openai', input_per_mtok: 2.5, output_per_mtok: 10 },
    ],
    users: [{ name: 'alice', email: 'alice@example.com', balance: 10 }],
    keys: [
      { name: 'main', key: keys.main, user: 'alice' },
      { name: 'budget', key: keys.budget, user: 'alice', group: 'budget' },
      { name: 'restricted', key: keys.restricted, user: 'alice', models: ['gpt-4o-mini'] },
      { name: 'expired', key: keys.expired, user: 'alice', expires_at: '2020-01-01T00:00:00Z' },
      { name: 'elsewhere', key: keys.elsewhere, user: 'alice', ip_allowlist: ['10.0.0.0/8', 'fd00::/8'] },
      { name: 'disabled', key: keys.disabled, user: 'alice', enabled: false },
    ],
  }, { env: { BODY_LIMIT: '65536' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

const client = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'Hello there' }];

describe('chat completions', () => {
  it('relays a chat, mapping the model id and authenticating upstream with the channel key', async () => {
    upstream.reset();
    const completion = await client(keys.main).chat.completions.create({ model: 'gpt-4o-mini', messages: hello });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toContain('Hello there');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    const seen = upstream.requests.at(-1)!;
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect((seen.body as { model: string }).model).toBe('gpt-4o-mini-2024-07-18');
  });

  it('streams chunk by chunk and hides the usage chunk it asked for on the client’s behalf', async () => {
    upstream.reset();
    const stream = await client(keys.main).chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toContain('Hello there');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    const seen = upstream.requests.at(-1)!.body as { stream_options?: { include_usage?: boolean } };
    expect(seen.stream_options?.include_usage).toBe(true);
  });

  it('passes the usage chunk through when the client asks for it', async () => {
    const stream = await client(keys.main).chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('passes unknown request fields upstream untouched', async () => {
    upstream.reset();
    await client(keys.main).chat.completions.create({ model: 'gpt-4o', messages: hello, vendor_extension: { mode: 'x', level: 3 } } as never);
    expect((upstream.requests.at(-1)!.body as Record<string, unknown>).vendor_extension).toEqual({ mode: 'x', level: 3 });
  });

  it('logs every call with its tokens and cost', async () => {
    const completion = await client(keys.main).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'count me' }] });
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().where('request_id', '=', await lastRequestId()).executeTakeFirstOrThrow();
    expect(row.key_name).toBe('main');
    expect(row.model).toBe('gpt-4o-mini');
    expect(row.upstream_model).toBe('gpt-4o-mini-2024-07-18');
    expect(row.input_tokens).toBe(completion.usage!.prompt_tokens);
    expect(row.output_tokens).toBe(completion.usage!.completion_tokens);
    const expectedMicros = Math.round((completion.usage!.prompt_tokens * 150_000 + completion.usage!.completion_tokens * 600_000) / 1_000_000);
    expect(row.cost_micros).toBe(expectedMicros);
  });
});

describe('streams and the client', () => {
  it('cancels the upstream request when the client disconnects mid-stream', async () => {
    upstream.reset();
    upstream.script({ stallAfterChunks: 2 });
    const controller = new AbortController();
    const stream = await client(keys.main).chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true }, { signal: controller.signal });
    for await (const _chunk of stream) {
      controller.abort();
      break;
    }
    await waitFor(() => upstream.requests.at(-1)?.aborted === true);
    expect(upstream.requests.at(-1)!.aborted).toBe(true);
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(row.error).toContain('client disconnected');
    expect(row.output_tokens).toBeGreaterThan(0);
  });

  it('counts usage from what was delivered when the upstream reports none', async () => {
    upstream.script({ omitUsage: true, reply: 'one two three four five six seven eight' });
    const stream = await client(keys.main).chat.completions.create({ model: 'gpt-4o-mini', messages: hello, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('one two three four five six seven eight');
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(row.output_tokens).toBe(8);
    expect(row.input_tokens).toBeGreaterThan(0);
    expect(row.cost_micros).toBeGreaterThan(0);
  });

  it('finishes a stream whose upstream ended without [DONE], so the client does not hang', async () => {
    upstream.script({ omitTerminator: true });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.main}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: hello, stream: true }),
    });
    const text = await response.text();
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function lastRequestId(): Promise<string> {
  const row = await gateway.database.db.selectFrom('usage_logs').select('request_id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.request_id;
}
