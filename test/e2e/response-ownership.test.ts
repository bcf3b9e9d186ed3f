// A Responses API id belongs to the user whose call created it: nobody else can continue that
// conversation (previous_response_id), and an id the gateway never relayed is unknown, both as a 404 in
// OpenAI's shape. Two users, the official openai SDK, the OpenAI simulator as upstream.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { readEnv } from '../../src/config/env.ts';
import { startGateway } from '../../src/start-gateway.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const UPSTREAM_KEY = 'sk-upstream-responses';
const ANTHROPIC_KEY = 'sk-ant-upstream-responses';
const keys = { alice: testKey('aliceresp'), aliceOther: testKey('aliceresptwo'), bob: testKey('bobresp') };

let upstream: OpenAISimulator;
let other: OpenAISimulator;
let anthropic: AnthropicSimulator;

function config() {
  return {
    channels: [
      { name: 'primary', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini', 'two-homes'] },
      // A second OpenAI channel for the same model: a continuation must go back to the channel that holds it.
      { name: 'secondary', type: 'openai', base_url: other.url, api_key: UPSTREAM_KEY, models: ['two-homes'] },
      { name: 'claude', type: 'anthropic', base_url: anthropic.url, api_key: ANTHROPIC_KEY, models: ['claude-x'] },
    ],
    models: [
      { id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 1 },
      { id: 'two-homes', free: true },
      { id: 'claude-x', free: true },
    ],
    users: [{ name: 'alice', balance: 10 }, { name: 'bob', balance: 10 }],
    keys: [
      { name: 'laptop', key: keys.alice, user: 'alice' },
      { name: 'phone', key: keys.aliceOther, user: 'alice' },
      { name: 'laptop', key: keys.bob, user: 'bob' },
    ],
  };
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  other = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  anthropic = await startAnthropicSimulator({ apiKey: ANTHROPIC_KEY });
});

afterAll(async () => {
  await upstream?.close();
  await other?.close();
  await anthropic?.close();
});

const clientFor = (gateway: { url: string }, key: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });

describe('previous_response_id on one instance', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway(config());
  });
  afterAll(async () => {
    await gateway?.dispose();
  });

  it("refuses another user's response id with the 404 an unknown id gets, without calling the upstream", async () => {
    const alice = clientFor(gateway, keys.alice);
    const bob = clientFor(gateway, keys.bob);
    const first = await alice.responses.create({ model: 'gpt-4o-mini', input: 'my secret plan' });
    const upstreamCalls = upstream.requests.length;

    const stolen = await bob.responses.create({ model: 'gpt-4o-mini', input: 'what did I say?', previous_response_id: first.id }).catch((error: unknown) => error);
    const unknown = await bob.responses.create({ model: 'gpt-4o-mini', input: 'x', previous_response_id: 'resp_never_issued' }).catch((error: unknown) => error);
    expect(stolen).toBeInstanceOf(OpenAI.NotFoundError);
    expect(stolen).toMatchObject({ status: 404, code: 'previous_response_not_found', param: 'previous_response_id', type: 'invalid_request_error' });
    expect((stolen as Error).message).toBe(`404 Previous response with id '${first.id}' not found.`);
    // Exactly what an id nobody issued gets, so ids cannot be probed.
    expect((unknown as Error).message).toBe("404 Previous response with id 'resp_never_issued' not found.");
    expect(upstream.requests.length).toBe(upstreamCalls);

    // The refusal is logged for bob, at no cost.
    await gateway.recorder.flush();
    const logged = await gateway.database.db.selectFrom('usage_logs').selectAll().where('status', '=', 404).where('endpoint', '=', '/v1/responses').execute();
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(logged.every((row) => row.cost_micros === 0 && row.key_name === 'laptop')).toBe(true);
  });

  it('lets the owner continue from any of their keys, streamed or not', async () => {
    const first = await clientFor(gateway, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'turn one' });
    const second = await clientFor(gateway, keys.aliceOther).responses.create({ model: 'gpt-4o-mini', input: 'turn two', previous_response_id: first.id });
    expect(second.output_text).toContain('turn two');
    expect((upstream.requests.at(-1)!.body as { previous_response_id: string }).previous_response_id).toBe(first.id);
  });

  it('records ids of streamed responses too', async () => {
    const stream = await clientFor(gateway, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'streamed turn', stream: true });
    let id = '';
    for await (const event of stream) if (event.type === 'response.created') id = event.response.id;
    expect(id).toMatch(/^resp_/);
    await expect(clientFor(gateway, keys.bob).responses.create({ model: 'gpt-4o-mini', input: 'x', previous_response_id: id, stream: true }))
      .rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    const continued = await clientFor(gateway, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'next', previous_response_id: id });
    expect(continued.output_text).toContain('next');
  });

  it('continues a conversation on the channel that holds it', async () => {
    const alice = clientFor(gateway, keys.alice);
    const ids: { id: string; home: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const before = other.requests.length;
      const response = await alice.responses.create({ model: 'two-homes', input: `turn ${i}` });
      ids.push({ id: response.id, home: other.requests.length > before ? 'secondary' : 'primary' });
    }
    for (const { id, home } of ids) {
      const [primaryBefore, secondaryBefore] = [upstream.requests.length, other.requests.length];
      await alice.responses.create({ model: 'two-homes', input: 'again', previous_response_id: id });
      expect(home === 'primary' ? upstream.requests.length - primaryBefore : other.requests.length - secondaryBefore).toBe(1);
    }
  });

  it('refuses to continue on another provider a conversation an OpenAI channel holds, naming previous_response_id', async () => {
    const first = await clientFor(gateway, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'hello' });
    await expect(clientFor(gateway, keys.alice).responses.create({ model: 'claude-x', input: 'x', previous_response_id: first.id }))
      .rejects.toMatchObject({ status: 400, param: 'previous_response_id', message: expect.stringContaining('kept by an OpenAI-type channel') });
  });

  it('retrieves, lists input items of and deletes a response for its owner only', async () => {
    const alice = clientFor(gateway, keys.alice);
    const bob = clientFor(gateway, keys.bob);
    const first = await alice.responses.create({ model: 'gpt-4o-mini', input: 'keep this' });
    const upstreamCalls = upstream.requests.length;
    await expect(bob.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.inputItems.list(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.delete(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.cancel(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(bob.responses.retrieve('resp_never_issued')).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    expect(upstream.requests.length).toBe(upstreamCalls);

    const retrieved = await clientFor(gateway, keys.aliceOther).responses.retrieve(first.id);
    expect(retrieved.id).toBe(first.id);
    expect(retrieved.output_text).toBe(first.output_text);
    const items = await alice.responses.inputItems.list(first.id);
    expect(items.data.map((item) => (item as { content: { text: string }[] }).content[0]!.text)).toEqual(['keep this']);
    await alice.responses.delete(first.id);
    await expect(alice.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(alice.responses.create({ model: 'gpt-4o-mini', input: 'x', previous_response_id: first.id })).rejects.toMatchObject({ status: 404 });
    const row = await gateway.database.db.selectFrom('responses').select('deleted_at').where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it("refuses conversation ids, and item references to another user's items as unknown ones", async () => {
    const alice = clientFor(gateway, keys.alice);
    const bob = clientFor(gateway, keys.bob);
    const first = await alice.responses.create({ model: 'gpt-4o-mini', input: 'my items' });
    const aliceItem = first.output[0]!.id!;
    const upstreamCalls = upstream.requests.length;
    await expect(bob.responses.create({ model: 'gpt-4o-mini', input: 'x', conversation: 'conv_of_alice' }))
      .rejects.toMatchObject({ status: 400, param: 'conversation', code: 'unsupported_parameter' });
    const stolen = await bob.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'x' }, { type: 'item_reference', id: aliceItem }] }).catch((error: unknown) => error);
    const unknown = await bob.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'x' }, { type: 'item_reference', id: 'msg_never_issued' }] }).catch((error: unknown) => error);
    expect(stolen).toMatchObject({ status: 404, param: 'input[1]', code: 'item_not_found' });
    expect((stolen as Error).message).toBe(`404 Item with id '${aliceItem}' not found.`);
    expect((unknown as Error).message).toBe("404 Item with id 'msg_never_issued' not found.");
    expect(upstream.requests.length).toBe(upstreamCalls);

    // Its owner's reference goes to the channel that keeps the item, as it is.
    await alice.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'again' }, { type: 'item_reference', id: aliceItem }] });
    expect((upstream.requests.at(-1)!.body as { input: unknown[] }).input[1]).toEqual({ type: 'item_reference', id: aliceItem });
  });

  it('remembers owners across a restart (from the database)', async () => {
    const first = await clientFor(gateway, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'before restart' });
    await gateway.stop();
    const env = readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: gateway.dir, LOG_LEVEL: 'silent', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' });
    const restarted = await startGateway({ env, configFile: gateway.configFile });
    try {
      const row = await restarted.database.db.selectFrom('responses').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state_kept_by: 'upstream', model: 'gpt-4o-mini', deleted_at: null });
      await expect(clientFor(restarted, keys.bob).responses.create({ model: 'gpt-4o-mini', input: 'x', previous_response_id: first.id }))
        .rejects.toMatchObject({ status: 404 });
      const continued = await clientFor(restarted, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'after restart', previous_response_id: first.id });
      expect(continued.output_text).toContain('after restart');
    } finally {
      await restarted.stop();
    }
  });
});

describe('previous_response_id across instances (PostgreSQL and Redis)', () => {
  let postgres: TestPostgres;
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    postgres = await createTestPostgres();
    const prefix = testRedisPrefix();
    // A long flush interval on A: B can only learn A's ids through Redis in time.
    a = await startTestGateway(config(), { env: { DATABASE_URL: postgres.url, REDIS_URL: REDIS_URL, REDIS_PREFIX: prefix, FLUSH_INTERVAL_MS: '5000' } });
    b = await startTestGateway(config(), { env: { DATABASE_URL: postgres.url, REDIS_URL: REDIS_URL, REDIS_PREFIX: prefix } });
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    await postgres?.drop();
  });

  it("knows on B at once who owns an id A relayed, before A's database write", async () => {
    const first = await clientFor(a, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'on instance A' });
    expect(await b.database.db.selectFrom('responses').select('id').where('id', '=', first.id).executeTakeFirst()).toBeUndefined();
    await expect(clientFor(b, keys.bob).responses.create({ model: 'gpt-4o-mini', input: 'x', previous_response_id: first.id }))
      .rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    const continued = await clientFor(b, keys.alice).responses.create({ model: 'gpt-4o-mini', input: 'on instance B', previous_response_id: first.id });
    expect(continued.output_text).toContain('on instance B');
  });
});
