// Two instances over one PostgreSQL and one Redis: the same Stripe event delivered to both at once, and
// the same redemption code redeemed on both at once, each pay out exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { startStripeSimulator, type StripeSimulator } from '../simulators/stripe-simulator.ts';
import { ApiClient } from '../helpers/api-client.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const STRIPE_KEY = 'sk_test_two_instances';
const WEBHOOK_SECRET = 'whsec_two_instances';
const PASSWORD = 'correct horse battery';
const adminKey = testKey('twoadmin');

let stripe: StripeSimulator;
let postgres: TestPostgres;
let prefix: string;
let a: TestGateway;
let b: TestGateway;

beforeAll(async () => {
  stripe = await startStripeSimulator({ secretKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });
  postgres = await createTestPostgres();
  prefix = testRedisPrefix();
  const config = {
    users: [{ name: 'boss', email: 'boss@example.com', password: PASSWORD, role: 'admin' }, { name: 'ivy', email: 'ivy@example.com', password: PASSWORD, balance: 1 }],
    keys: [{ name: 'admin', key: adminKey, user: 'boss' }],
  };
  const env = { DATABASE_URL: postgres.url, REDIS_URL, REDIS_PREFIX: prefix, STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url };
  a = await startTestGateway(config, { env });
  b = await startTestGateway(config, { env });
});

afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  await postgres?.drop();
  await stripe?.close();
  const redis = new Redis(REDIS_URL);
  const leftovers = await redis.keys(`${prefix}*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

const balance = async () => Number((await a.database.db.selectFrom('users').select('balance_micros').where('name', '=', 'ivy').executeTakeFirstOrThrow()).balance_micros);
const ledger = async () => (await a.database.db.selectFrom('wallet_ledger').innerJoin('users', 'users.id', 'wallet_ledger.user_id').select('amount_micros').where('users.name', '=', 'ivy').execute()).reduce((sum, row) => sum + Number(row.amount_micros), 0);

describe('payments on two instances', () => {
  it('credit an event delivered to both instances at once exactly once', async () => {
    const ivy = new ApiClient(a.url);
    expect((await ivy.post('/api/auth/login', { email: 'ivy@example.com', password: PASSWORD })).status).toBe(200);
    const before = await balance();
    const started = await ivy.post('/api/wallet/topup', { amount_usd: 25 });
    expect(started.status).toBe(201);
    const session = stripe.sessions.get(String(started.body.checkout_url).split('/').at(-1)!)!;
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_two' });
    const { payload, header } = stripe.signedEvent('checkout.session.completed', session);
    const send = (gateway: TestGateway) =>
      fetch(`${gateway.url}/api/payments/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload }).then(async (answer) => (await answer.json() as { outcome: string }).outcome);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => send(index % 2 === 0 ? a : b)));
    expect(outcomes.filter((outcome) => outcome === 'credited')).toHaveLength(1);
    expect(await balance()).toBe(before + 25_000_000);
    // Both instances' live balances know of it.
    for (const gateway of [a, b]) {
      const userId = Number((await gateway.database.db.selectFrom('users').select('id').where('name', '=', 'ivy').executeTakeFirstOrThrow()).id);
      expect(await gateway.accounting.balance(userId)).toBe(before + 25_000_000);
    }
    expect(await ledger()).toBe(await balance());
  });

  it('pay a redemption code redeemed on both instances at once exactly once', async () => {
    const admin = new ApiClient(a.url, adminKey);
    const { codes } = (await admin.post('/api/admin/redemption-codes', { count: 1, amount_usd: 4 })).body as { codes: string[] };
    const onA = new ApiClient(a.url);
    const onB = new ApiClient(b.url);
    await onA.post('/api/auth/login', { email: 'ivy@example.com', password: PASSWORD });
    await onB.post('/api/auth/login', { email: 'ivy@example.com', password: PASSWORD });
    const before = await balance();
    const answers = await Promise.all([onA.post('/api/wallet/redeem', { code: codes[0] }), onB.post('/api/wallet/redeem', { code: codes[0] }), onA.post('/api/wallet/redeem', { code: codes[0] }), onB.post('/api/wallet/redeem', { code: codes[0] })]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(await balance()).toBe(before + 4_000_000);
    expect(await ledger()).toBe(await balance());
  });
});
