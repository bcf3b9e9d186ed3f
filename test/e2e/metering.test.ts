// Money: prices required, reservations against quotas and wallets, charges that match the ledger,
// rate limits, statistics and the billing read-back, seen through the official openai SDK.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const UPSTREAM_KEY = 'sk-upstream-metering';
const keys = {
  rich: testKey('erinrich'),
  quota: testKey('erinquota'),
  limited: testKey('erinlimited'),
  poor: testKey('frankpoor'),
  admin: testKey('rootadmin'),
};

let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['priced', 'unpriced', 'gratis'] }],
    models: [
      // 1 micro-USD per token in and out keeps the arithmetic visible.
      { id: 'priced', owned_by: 'test', input_per_mtok: 1, output_per_mtok: 1 },
      { id: 'gratis', owned_by: 'test', free: true },
    ],
    users: [
      { name: 'erin', balance: 100 },
      { name: 'frank', balance: 0.0005 },
      { name: 'root', role: 'admin' },
    ],
    keys: [
      { name: 'rich', key: keys.rich, user: 'erin' },
      { name: 'quota', key: keys.quota, user: 'erin', quota: 0.0001 },
      { name: 'limited', key: keys.limited, user: 'erin', rpm_limit: 2 },
      { name: 'poor', key: keys.poor, user: 'frank' },
      { name: 'admin', key: keys.admin, user: 'root' },
    ],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

const client = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 });
const ask = (apiKey: string, model = 'priced') => client(apiKey).chat.completions.create({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });

async function ledgerOf(userName: string) {
  await gateway.recorder.flush();
  const db = gateway.database.db;
  const user = await db.selectFrom('users').selectAll().where('name', '=', userName).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', user.id).execute();
  return { balance: user.balance_micros, sum: rows.reduce((total, row) => total + row.amount_micros, 0), rows };
}

describe('prices', () => {
  it('refuses a model without a price', async () => {
    await expect(ask(keys.rich, 'unpriced')).rejects.toMatchObject({ status: 403, code: 'model_price_missing' });
  });

  it('serves a model marked free even from an empty wallet, and charges nothing', async () => {
    const root = await ledgerOf('root');
    const completion = await ask(keys.admin, 'gratis');
    expect(completion.choices[0]?.message.content).toContain('hi');
    expect((await ledgerOf('root')).balance).toBe(root.balance);
  });
});

describe('charges', () => {
  it('charges the priced cost of a call to the wallet, as a ledger row', async () => {
    const before = await ledgerOf('erin');
    const completion = await ask(keys.rich);
    const after = await ledgerOf('erin');
    const cost = completion.usage!.prompt_tokens + completion.usage!.completion_tokens;
    expect(before.balance - after.balance).toBe(cost);
    expect(after.balance).toBe(after.sum);
  });

  it('charges nothing for a call the upstream failed', async () => {
    const before = await ledgerOf('erin');
    // A 5xx is retried once on the same channel; both attempts fail here.
    const boom = { status: 500, body: { error: { message: 'boom', type: 'server_error', param: null, code: null } } };
    upstream.script(boom, boom);
    await expect(ask(keys.rich)).rejects.toMatchObject({ status: 500 });
    const after = await ledgerOf('erin');
    expect(after.balance).toBe(before.balance);
    const log = await gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log.status).toBe(500);
    expect(log.cost_micros).toBe(0);
  });

  it('stops a key at its quota with 429 insufficient_quota and x-should-retry: false', async () => {
    let refused: unknown;
    for (let i = 0; i < 20 && !refused; i++) {
      await ask(keys.quota).catch((error: unknown) => (refused = error));
    }
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect(refused).toMatchObject({ code: 'insufficient_quota' });
    expect((refused as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    await gateway.recorder.flush();
    const key = await gateway.database.db.selectFrom('api_keys').selectAll().where('name', '=', 'quota').executeTakeFirstOrThrow();
    expect(key.used_micros).toBeGreaterThan(0);
    expect(key.used_micros).toBeLessThanOrEqual(100);
  });

  it('never overspends a wallet under concurrent load, and the balance equals the ledger', async () => {
    const results = await Promise.allSettled(Array.from({ length: 60 }, () => ask(keys.poor)));
    const succeeded = results.filter((result) => result.status === 'fulfilled').length;
    const refused = results.filter((result) => result.status === 'rejected');
    expect(succeeded).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toMatchObject({ status: 429, code: 'insufficient_quota' });
    const frank = await ledgerOf('frank');
    expect(frank.balance).toBeGreaterThanOrEqual(0);
    expect(frank.balance).toBe(frank.sum);
    const logs = await gateway.database.db.selectFrom('usage_logs').select(['cost_micros', 'status']).where('key_name', '=', 'poor').execute();
    expect(logs.filter((log) => log.status === 200)).toHaveLength(succeeded);
    const charged = frank.rows.filter((row) => row.kind === 'charge').reduce((sum, row) => sum - row.amount_micros, 0);
    expect(charged).toBe(logs.reduce((sum, log) => sum + log.cost_micros, 0));
  });
});

describe('rate limits', () => {
  it('answers 429 rate_limit_exceeded with Retry-After past the key’s requests per minute', async () => {
    await ask(keys.limited);
    await ask(keys.limited);
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.limited}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'priced', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
  });
});

describe('statistics and billing read-back', () => {
  it('reports requests, tokens, cost and RPM for a key from the aggregates', async () => {
    await ask(keys.rich);
    await gateway.recorder.flush();
    const stats = await (await fetch(`${gateway.url}/api/stats?bucket=minute`, { headers: { authorization: `Bearer ${keys.rich}` } })).json() as {
      totals: { requests: number; costMicros: number; inputTokens: number }; rpm: number; by_model: { model: string; requests: number }[];
    };
    const logs = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'rich').execute();
    expect(stats.totals.requests).toBe(logs.length);
    expect(stats.totals.costMicros).toBe(logs.reduce((sum, log) => sum + log.cost_micros, 0));
    expect(stats.totals.inputTokens).toBe(logs.reduce((sum, log) => sum + log.input_tokens, 0));
    expect(stats.rpm).toBeGreaterThan(0);
    expect(stats.by_model.find((row) => row.model === 'priced')?.requests).toBeGreaterThan(0);
  });

  it('keeps platform statistics for administrators', async () => {
    const refused = await fetch(`${gateway.url}/api/stats?scope=platform`, { headers: { authorization: `Bearer ${keys.rich}` } });
    expect(refused.status).toBe(403);
    const allowed = await fetch(`${gateway.url}/api/stats?scope=platform`, { headers: { authorization: `Bearer ${keys.admin}` } });
    expect(allowed.status).toBe(200);
  });

  it('serves the one-api billing endpoints, with and without /v1', async () => {
    for (const prefix of ['/v1', '']) {
      const subscription = await (await fetch(`${gateway.url}${prefix}/dashboard/billing/subscription`, { headers: { authorization: `Bearer ${keys.quota}` } })).json() as { hard_limit_usd: number };
      expect(subscription.hard_limit_usd).toBe(0.0001);
      const usage = await (await fetch(`${gateway.url}${prefix}/dashboard/billing/usage`, { headers: { authorization: `Bearer ${keys.quota}` } })).json() as { total_usage: number };
      await gateway.recorder.flush();
      const key = await gateway.database.db.selectFrom('api_keys').selectAll().where('name', '=', 'quota').executeTakeFirstOrThrow();
      expect(usage.total_usage).toBeCloseTo(key.used_micros / 10_000, 6);
    }
    const wallet = await (await fetch(`${gateway.url}/dashboard/billing/subscription`, { headers: { authorization: `Bearer ${keys.poor}` } })).json() as { hard_limit_usd: number };
    const frank = await ledgerOf('frank');
    const used = await gateway.database.db.selectFrom('api_keys').select('used_micros').where('name', '=', 'poor').executeTakeFirstOrThrow();
    expect(wallet.hard_limit_usd).toBeCloseTo((frank.balance + used.used_micros) / 1_000_000, 9);
  });
});
