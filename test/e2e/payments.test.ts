// Money in, exactly once: Stripe Checkout top-ups through the Stripe simulator (checked with the stripe
// SDK), webhooks signed as Stripe signs them, refunds, redemption codes and low-balance alerts. After all
// of it the ledger sums to the balance.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startStripeSimulator, type StripeSimulator } from '../simulators/stripe-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';

const STRIPE_KEY = 'sk_test_gateway';
const WEBHOOK_SECRET = 'whsec_gateway_test';
const PASSWORD = 'correct horse battery';
const keys = { admin: testKey('payadmin'), payer: testKey('payerkey') };

let stripe: StripeSimulator;
let upstream: OpenAISimulator;
let smtp: TestSmtp;
let gateway: TestGateway;

const config = () => ({
  channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['priced'] }],
  models: [{ id: 'priced', owned_by: 'test', input_per_mtok: 1000, output_per_mtok: 1000 }],
  users: [
    { name: 'root', email: 'root@example.com', password: PASSWORD, role: 'admin', balance: 0 },
    { name: 'payer', email: 'payer@example.com', password: PASSWORD, balance: 0 },
    { name: 'other', email: 'other@example.com', password: PASSWORD, balance: 0 },
  ],
  keys: [
    { name: 'admin', key: keys.admin, user: 'root' },
    { name: 'payer', key: keys.payer, user: 'payer' },
  ],
});

beforeAll(async () => {
  stripe = await startStripeSimulator({ secretKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  smtp = await startTestSmtp();
  gateway = await startTestGateway(config(), {
    env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url, PUBLIC_URL: 'http://gateway.test', SMTP_URL: smtp.url, MAIL_POLL_MS: '100', NOTIFY_INTERVAL_MS: '100' },
  });
  stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([stripe?.close(), upstream?.close(), smtp?.close()]);
});

async function signIn(email: string): Promise<ApiClient> {
  const client = new ApiClient(gateway.url);
  expect((await client.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
  return client;
}

const balanceOf = async (name: string) => Number((await gateway.database.db.selectFrom('users').select('balance_micros').where('name', '=', name).executeTakeFirstOrThrow()).balance_micros);
const ledgerSum = async (name: string) => {
  const rows = await gateway.database.db.selectFrom('wallet_ledger').innerJoin('users', 'users.id', 'wallet_ledger.user_id').select('wallet_ledger.amount_micros').where('users.name', '=', name).execute();
  return rows.reduce((sum, row) => sum + Number(row.amount_micros), 0);
};
const sessionOf = (checkoutUrl: string) => stripe.sessions.get(checkoutUrl.split('/').at(-1)!)!;

describe('card top-ups', () => {
  it('refuses every amount that is not a whole number of dollars from 1 to the maximum, naming amount_usd', async () => {
    const payer = await signIn('payer@example.com');
    for (const amount of [0, -1, 1.5, '5', 1e9, null]) {
      const answer = await payer.post('/api/wallet/topup', amount === null ? {} : { amount_usd: amount });
      expect(answer.status, JSON.stringify(amount)).toBe(400);
      expect(answer.body.error.param).toBe('amount_usd');
    }
    const options = await payer.get('/api/wallet/topup');
    expect(options.body).toEqual({ enabled: true, min_usd: 1, max_usd: 10_000 });
    expect((await payer.post('/api/wallet/topup', { amount_usd: 10_001 })).body.error.param).toBe('amount_usd');
    expect(stripe.sessions.size).toBe(0);
  });

  it('needs the session and its CSRF token', async () => {
    const payer = await signIn('payer@example.com');
    payer.sendCsrf = false;
    expect((await payer.post('/api/wallet/topup', { amount_usd: 5 })).status).toBe(403);
    const keyOnly = new ApiClient(gateway.url, keys.payer);
    expect((await keyOnly.post('/api/wallet/topup', { amount_usd: 5 })).status).toBe(401);
  });

  it('credits a paid checkout exactly once, however often and however concurrently the event arrives', async () => {
    const payer = await signIn('payer@example.com');
    const before = await balanceOf('payer');
    const started = await payer.post('/api/wallet/topup', { amount_usd: 7 });
    expect(started.status).toBe(201);
    const session = sessionOf(started.body.checkout_url);
    expect(session).toMatchObject({ amount_total: 700, currency: 'usd', client_reference_id: expect.any(String), metadata: { payment_id: String(started.body.payment_id) } });
    expect(session.success_url).toBe(`http://gateway.test/wallet?payment=success&topup=${started.body.payment_id}`);
    expect((await payer.get(`/api/wallet/payments/${started.body.payment_id}`)).body.status).toBe('pending');

    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = 'pi_test_once';
    const { payload, header } = stripe.signedEvent('checkout.session.completed', session, { id: 'evt_once' });
    const deliveries = await Promise.all(Array.from({ length: 20 }, () =>
      fetch(stripe.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload }).then(async (answer) => ({ status: answer.status, body: await answer.json() as { outcome: string } }))));
    expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);
    expect(deliveries.filter((delivery) => delivery.body.outcome === 'credited')).toHaveLength(1);
    // The same payment announced again by the async-success event, and by a fresh event id: still once.
    expect(await stripe.deliver('checkout.session.async_payment_succeeded', session)).toBe(200);
    expect(await stripe.deliver('checkout.session.completed', session)).toBe(200);
    // An expiry arriving late does not undo a completed payment.
    expect(await stripe.deliver('checkout.session.expired', session)).toBe(200);

    expect(await balanceOf('payer')).toBe(before + 7_000_000);
    const payment = (await payer.get(`/api/wallet/payments/${started.body.payment_id}`)).body;
    expect(payment).toMatchObject({ status: 'completed', amount_usd: 7 });
    expect(await ledgerSum('payer')).toBe(await balanceOf('payer'));
  });

  it('credits through the hosted page without the user coming back, and the user can spend it', async () => {
    const payer = await signIn('payer@example.com');
    const before = await balanceOf('payer');
    const started = await payer.post('/api/wallet/topup', { amount_usd: 3 });
    const pay = await fetch(started.body.checkout_url, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toContain('/wallet?payment=success');
    expect(await balanceOf('payer')).toBe(before + 3_000_000);
    const answer = await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: keys.payer, maxRetries: 0 }).chat.completions.create({ model: 'priced', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBeTruthy();
  });

  it('refuses forged, stale and unsigned events and changes nothing', async () => {
    const payer = await signIn('payer@example.com');
    const started = await payer.post('/api/wallet/topup', { amount_usd: 50 });
    const session = { ...sessionOf(started.body.checkout_url), status: 'complete', payment_status: 'paid' };
    // The previous test's chat call is charged behind its answer: written before the balance is read here.
    await gateway.recorder.flush();
    const before = await balanceOf('payer');
    const forged = stripe.signedEvent('checkout.session.completed', session, { secret: 'whsec_attacker' });
    const stale = stripe.signedEvent('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const valid = stripe.signedEvent('checkout.session.completed', session);
    const send = (body: string, signature?: string) =>
      fetch(stripe.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body });
    expect((await send(forged.payload, forged.header)).status).toBe(400);
    expect((await send(stale.payload, stale.header)).status).toBe(400);
    expect((await send(valid.payload)).status).toBe(400);
    // A valid signature over another body: the amount was tampered with.
    expect((await send(valid.payload.replace('"amount_total":5000', '"amount_total":500000'), valid.header)).status).toBe(400);
    expect(await balanceOf('payer')).toBe(before);
    expect((await payer.get(`/api/wallet/payments/${started.body.payment_id}`)).body.status).toBe('pending');
    expect(await stripe.deliver('checkout.session.expired', session)).toBe(200);
    expect((await payer.get(`/api/wallet/payments/${started.body.payment_id}`)).body.status).toBe('failed');
  });

  it('debits a refund once, even below zero, and then calls are refused with insufficient_quota', async () => {
    const payer = await signIn('payer@example.com');
    const started = await payer.post('/api/wallet/topup', { amount_usd: 2 });
    const session = sessionOf(started.body.checkout_url);
    await stripe.pay(session.id);
    // The charge of the call the test above made is written behind; it must be in the balance before
    // this test reads the balance and then overwrites it (the metering worker may still be starting).
    await gateway.recorder.flush();
    const charge = { id: 'ch_test_refund', object: 'charge', payment_intent: session.payment_intent, amount: 200, amount_refunded: 100, refunded: false, receipt_url: 'https://pay.example/receipts/1' };
    const afterCredit = await balanceOf('payer');
    expect(await stripe.deliver('charge.refunded', charge)).toBe(200);
    expect(await stripe.deliver('charge.refunded', charge)).toBe(200);
    expect(await balanceOf('payer')).toBe(afterCredit - 1_000_000);
    // The whole payment refunded after the user spent everything else: the balance goes below zero.
    await gateway.database.db.updateTable('users').set({ balance_micros: 0 }).where('name', '=', 'payer').execute();
    await gateway.database.db.insertInto('wallet_ledger').values({ user_id: (await gateway.database.db.selectFrom('users').select('id').where('name', '=', 'payer').executeTakeFirstOrThrow()).id, created_at: Date.now(), kind: 'charge', amount_micros: -(afterCredit - 1_000_000), reference: 'test-spend-all', note: 'spent' }).execute();
    await gateway.accounting.forget({ userId: (await gateway.database.db.selectFrom('users').select('id').where('name', '=', 'payer').executeTakeFirstOrThrow()).id });
    expect(await stripe.deliver('charge.refunded', { ...charge, amount_refunded: 200, refunded: true })).toBe(200);
    expect(await balanceOf('payer')).toBe(-1_000_000);
    const payment = (await payer.get(`/api/wallet/payments/${started.body.payment_id}`)).body;
    expect(payment).toMatchObject({ status: 'refunded', refunded_usd: 2, receipt_url: 'https://pay.example/receipts/1' });
    const refused = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${keys.payer}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'priced', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_quota');
    expect(await ledgerSum('payer')).toBe(await balanceOf('payer'));
  });

  it('asks Stripe to retry a refund that arrives before its payment, and ignores events it does not use', async () => {
    expect(await stripe.deliver('charge.refunded', { id: 'ch_early', object: 'charge', payment_intent: 'pi_unknown', amount_refunded: 100 })).toBe(409);
    expect(await stripe.deliver('customer.created', { id: 'cus_1', object: 'customer' })).toBe(200);
  });
});

describe('redemption codes', () => {
  it('are made by admins only, shown once, and pay out once even when redeemed twice at the same moment', async () => {
    const payer = await signIn('payer@example.com');
    expect((await payer.post('/api/admin/redemption-codes', { count: 1, amount_usd: 5 })).status).toBe(403);
    const admin = new ApiClient(gateway.url, keys.admin);
    for (const bad of [{ count: 0, amount_usd: 5 }, { count: 1, amount_usd: 0 }, { count: 1, amount_usd: 1.234 }, { count: 5000, amount_usd: 1 }]) {
      expect((await admin.post('/api/admin/redemption-codes', bad)).status).toBe(400);
    }
    const made = await admin.post('/api/admin/redemption-codes', { count: 2, amount_usd: 5, note: 'conference' });
    expect(made.status).toBe(201);
    const [first, second] = made.body.codes as string[];
    const listed = await admin.get('/api/admin/redemption-codes');
    expect(JSON.stringify(listed.body)).not.toContain(first!.slice(8));

    const other = await signIn('other@example.com');
    const before = await balanceOf('payer');
    const attempts = await Promise.all([payer.post('/api/wallet/redeem', { code: first }), other.post('/api/wallet/redeem', { code: first }), payer.post('/api/wallet/redeem', { code: first })]);
    expect(attempts.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(attempts.filter((answer) => answer.status === 400).every((answer) => answer.body.error.code === 'invalid_redemption_code')).toBe(true);
    const winner = attempts.findIndex((answer) => answer.status === 200);
    if (winner === 1) expect(await balanceOf('other')).toBe(5_000_000);
    else expect((await balanceOf('payer')) - before).toBe(5_000_000);

    const unknown = await other.post('/api/wallet/redeem', { code: 'rc-not-a-real-code' });
    const used = await other.post('/api/wallet/redeem', { code: first });
    expect(unknown.body).toEqual(used.body);
    expect((await other.post('/api/wallet/redeem', { code: second })).status).toBe(200);
    for (const name of ['payer', 'other']) expect(await ledgerSum(name)).toBe(await balanceOf(name));
  });
});

describe('low-balance alerts', () => {
  const lowMails = () => smtp.mails.filter((mail) => mail.to.includes('other@example.com') && /balance/i.test(mail.subject));
  it('mail once when the balance falls below the threshold, and again only after a top-up re-arms them', async () => {
    const other = await signIn('other@example.com');
    const balance = await balanceOf('other');
    const before = lowMails().length;
    expect((await other.put('/api/me/settings', { notifications: { low_balance_usd: balance / 1_000_000 + 1 } })).status).toBe(200);
    await expect.poll(() => lowMails().length, { timeout: 8000 }).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(lowMails()).toHaveLength(before + 1);

    // A redemption code lifts the balance above the threshold: the alert re-arms, and fires again when the
    // threshold is once more above the balance.
    const admin = new ApiClient(gateway.url, keys.admin);
    const { codes } = (await admin.post('/api/admin/redemption-codes', { count: 1, amount_usd: 10 })).body as { codes: string[] };
    expect((await other.post('/api/wallet/redeem', { code: codes[0] })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(lowMails()).toHaveLength(before + 1);
    await other.put('/api/me/settings', { notifications: { low_balance_usd: (await balanceOf('other')) / 1_000_000 + 1 } });
    await expect.poll(() => lowMails().length, { timeout: 8000 }).toBe(before + 2);
  });
});
