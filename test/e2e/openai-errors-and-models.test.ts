// What a client sees when something is wrong, and which models each key may list.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const UPSTREAM_KEY = 'sk-upstream-errors-0001';
const keys = {
  main: testKey('bobmain'),
  budget: testKey('bobbudget'),
  restricted: testKey('bobrestricted'),
  expired: testKey('bobexpired'),
  elsewhere: testKey('bobelsewhere'),
  disabled: testKey('bobdisabled'),
};

let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    groups: [{ name: 'budget', ratio: 0.5 }],
    channels: [
      { name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini', 'gpt-4o'] },
      { name: 'budget', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['cheap-model'], groups: ['budget'] },
      { name: 'fragile', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['fragile-model'] },
    ],
    models: [
      { id: 'gpt-4o', owned_by: 'openai', input_per_mtok: 2.5, output_per_mtok: 10 },
      { id: 'fragile-model', owned_by: 'test', input_per_mtok: 1, output_per_mtok: 1 },
    ],
    users: [{ name: 'bob', balance: 5 }],
    keys: [
      { name: 'main', key: keys.main, user: 'bob' },
      { name: 'budget', key: keys.budget, user: 'bob', group: 'budget' },
      { name: 'restricted', key: keys.restricted, user: 'bob', models: ['gpt-4o-mini'] },
      { name: 'expired', key: keys.expired, user: 'bob', expires_at: '2020-01-01T00:00:00Z' },
      { name: 'elsewhere', key: keys.elsewhere, user: 'bob', ip_allowlist: ['10.0.0.0/8', 'fd00::/8'] },
      { name: 'disabled', key: keys.disabled, user: 'bob', enabled: false },
    ],
  }, { env: { BODY_LIMIT: '65536' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

const client = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 });
const chat = (apiKey: string, model = 'gpt-4o') => client(apiKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

async function rawPost(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.main}`, ...headers },
    body,
  });
  return { status: response.status, body: await response.json() as { error: { message: string; type: string; code: string | null; param: string | null } } };
}

describe('models list', () => {
  it('shows a default-group key every model', async () => {
    const models = await client(keys.main).models.list();
    expect(models.data.map((model) => model.id)).toEqual(['cheap-model', 'fragile-model', 'gpt-4o', 'gpt-4o-mini']);
    const gpt4o = models.data.find((model) => model.id === 'gpt-4o')!;
    expect(gpt4o).toMatchObject({ object: 'model', owned_by: 'openai' });
    expect(typeof gpt4o.created).toBe('number');
  });

  it('retrieves one model the key may use, and 404s one it may not', async () => {
    expect(await client(keys.main).models.retrieve('gpt-4o')).toMatchObject({ id: 'gpt-4o', object: 'model', owned_by: 'openai' });
    await expect(client(keys.budget).models.retrieve('gpt-4o')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('shows a budget-group key only its group’s models', async () => {
    const models = await client(keys.budget).models.list();
    expect(models.data.map((model) => model.id)).toEqual(['cheap-model']);
  });

  it('shows a restricted key only its own list', async () => {
    const models = await client(keys.restricted).models.list();
    expect(models.data.map((model) => model.id)).toEqual(['gpt-4o-mini']);
  });
});

describe('authentication errors (401)', () => {
  it('refuses a request without a key', async () => {
    const response = await fetch(`${gateway.url}/v1/models`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
  });

  it.each([
    ['an unknown gateway-shaped key', testKey('nobodyhasthiskey')],
    ['an upstream provider key', 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH'],
    ['a random string', 'hello'],
  ])('refuses %s', async (_label, key) => {
    await expect(chat(key)).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('refuses an expired key', async () => {
    await expect(chat(keys.expired)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(chat(keys.expired)).rejects.toMatchObject({ code: 'expired_api_key' });
  });

  it('refuses a disabled key', async () => {
    await expect(chat(keys.disabled)).rejects.toMatchObject({ status: 401 });
  });
});

describe('permission errors (403)', () => {
  it('refuses a model outside the key’s own list', async () => {
    await expect(chat(keys.restricted, 'gpt-4o')).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it('refuses a model outside the key’s group', async () => {
    await expect(chat(keys.budget, 'gpt-4o')).rejects.toMatchObject({ status: 403, code: 'model_not_allowed', param: 'model' });
  });

  it('refuses a client address outside the allowlist', async () => {
    await expect(chat(keys.elsewhere)).rejects.toMatchObject({ status: 403, code: 'ip_not_allowed' });
  });
});

describe('request errors', () => {
  it('answers 404 model_not_found for a model nobody serves', async () => {
    const error = await chat(keys.main, 'no-such-model').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'model_not_found' });
  });

  it('answers 400 for invalid JSON', async () => {
    const { status, body } = await rawPost('/v1/chat/completions', '{"model": "gpt-4o", "messages": [');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.type).toBe('invalid_request_error');
  });

  it('answers 400 naming a missing required field', async () => {
    const { status, body } = await rawPost('/v1/chat/completions', JSON.stringify({ model: 'gpt-4o' }));
    expect(status).toBe(400);
    expect(body.error.param).toBe('messages');
    expect(body.error.message).toContain('messages');
  });

  it('answers 400 naming an ill-typed field', async () => {
    const { status, body } = await rawPost('/v1/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], temperature: 3 }));
    expect(status).toBe(400);
    expect(body.error.param).toBe('temperature');
  });

  it('answers 413 for a body over the limit', async () => {
    const huge = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(100_000) }] });
    const { status, body } = await rawPost('/v1/chat/completions', huge);
    expect(status).toBe(413);
    expect(body.error.type).toBe('request_too_large');
  });

  it('answers 404 in the OpenAI envelope for an unknown URL', async () => {
    const { status, body } = await rawPost('/v1/nothing-here', '{}');
    expect(status).toBe(404);
    expect(body.error.message).toContain('/v1/nothing-here');
  });
});

describe('upstream errors', () => {
  it('passes an upstream 429 on with its status and message', async () => {
    upstream.script({ status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } } });
    const error = await chat(keys.main).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as Error).message).toContain('Rate limit reached for requests');
  });

  it('passes an upstream 400 on with its message', async () => {
    upstream.script({ status: 400, body: { error: { message: "This model's maximum context length is 128000 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } });
    const error = await chat(keys.main).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded' });
    expect((error as Error).message).toContain('maximum context length');
  });

  it('turns an upstream refusal of the channel’s own key into 502, and disables that channel with the reason', async () => {
    upstream.script({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } });
    const error = await chat(keys.main, 'fragile-model').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain("refused the gateway's credentials");
    const channel = await gateway.database.db.selectFrom('channels').selectAll().where('name', '=', 'fragile').executeTakeFirstOrThrow();
    expect(channel.status).toBe('auto_disabled');
    expect(channel.status_reason).toContain("refused the gateway's credentials (401 invalid_api_key)");
    await expect(chat(keys.main, 'fragile-model')).rejects.toMatchObject({ status: 503, code: 'model_unavailable' });
  });
});

describe('health and metrics', () => {
  it('is ready once migrations and the config are applied', async () => {
    const response = await fetch(`${gateway.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('serves Prometheus metrics with requests by route, model and status', async () => {
    await chat(keys.main);
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(text).toMatch(/gateway_requests_total\{route="\/v1\/chat\/completions",model="gpt-4o",status="200"\} \d+/);
    expect(text).toContain('gateway_upstream_response_seconds_bucket');
  });
});
