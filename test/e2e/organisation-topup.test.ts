// A card top-up of an organisation's shared wallet through Stripe Checkout (the Stripe simulator and the
// signed webhook): a billing member starts it, the webhook credits the organisation's wallet exactly once,
// the ledger agrees, and neither a plain member nor the payer's own wallet is involved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startStripeSimulator, type StripeSimulator } from '../simulators/stripe-simulator.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { sumLedgerByUser } from '../../src/db/repositories/wallet-ledger.ts';

const STRIPE_KEY = 'sk_test_org_topup';
const WEBHOOK_SECRET = 'whsec_org_topup';
const PASSWORD = 'organisation password 1';
let stripe: StripeSimulator;
let smtp: TestSmtp;
let gateway: TestGateway;
const people: Record<string, ApiClient> = {};

beforeAll(async () => {
  stripe = await startStripeSimulator({ secretKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });
  smtp = await startTestSmtp();
  gateway = await startTestGateway({
    users: ['owen', 'bill', 'mia'].map((name) => ({ name, email: `${name}@example.com`, password: PASSWORD })),
  }, { env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url, PUBLIC_URL: 'http://gateway.test', SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
  stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
  for (const name of ['owen', 'bill', 'mia']) {
    people[name] = new ApiClient(gateway.url);
    expect((await people[name].post('/api/auth/login', { email: `${name}@example.com`, password: PASSWORD })).status).toBe(200);
  }
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([stripe?.close(), smtp?.close()]);
});

describe('an organisation top-up by card', () => {
  it('is started by a billing member and credited to the shared wallet once, by the webhook', async () => {
    const org = (await people.owen!.post('/api/orgs', { name: 'Paying' })).body.id as number;
    for (const [name, role] of [['bill', 'billing'], ['mia', 'member']] as const) {
      const since = smtp.mails.length;
      await people.owen!.post(`/api/orgs/${org}/invites`, { email: `${name}@example.com`, role });
      const mail = await smtp.waitFor(`${name}@example.com`, /Join Paying/, since);
      expect((await people[name]!.post('/api/orgs/join', { token: new URL(linkIn(mail, '/orgs/join?token=')).searchParams.get('token') })).status).toBe(200);
    }
    const refused = await people.mia!.post(`/api/orgs/${org}/wallet/topup`, { amount_usd: 4 });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('organisation_role');
    expect((await people.bill!.post(`/api/orgs/${org}/wallet/topup`, { amount_usd: 2.5 })).body.error.param).toBe('amount_usd');

    const walletUserId = Number((await gateway.database.db.selectFrom('organisations').select('wallet_user_id').where('id', '=', org).executeTakeFirstOrThrow()).wallet_user_id);
    const started = await people.bill!.post(`/api/orgs/${org}/wallet/topup`, { amount_usd: 4 });
    expect(started.status).toBe(201);
    const session = stripe.sessions.get(String(started.body.checkout_url).split('/').at(-1)!)!;
    // The payment belongs to the organisation's wallet account.
    expect(session).toMatchObject({ amount_total: 400, client_reference_id: String(walletUserId) });
    expect(session.success_url).toBe(`http://gateway.test/orgs/${org}?payment=success&topup=${started.body.payment_id}`);
    expect((await people.owen!.get(`/api/orgs/${org}/wallet/payments`)).body.data[0]).toMatchObject({ id: started.body.payment_id, status: 'pending' });

    expect(await stripe.pay(session.id)).toBe(200);
    expect(await stripe.deliver('checkout.session.completed', session)).toBe(200);
    const wallet = (await people.bill!.get(`/api/orgs/${org}/wallet`)).body;
    expect(wallet.balance_usd).toBe(4);
    expect(await sumLedgerByUser(gateway.database.db, walletUserId)).toBe(4_000_000);
    expect((await people.owen!.get(`/api/orgs/${org}/wallet/payments`)).body.data[0]).toMatchObject({ id: started.body.payment_id, status: 'completed', amount_usd: 4 });
    // The payer's own wallet and payments are not the organisation's.
    expect((await people.bill!.get('/api/wallet')).body.balance_usd).toBe(0);
    expect((await people.bill!.get('/api/wallet/payments')).body.data).toEqual([]);
    expect((await people.bill!.get(`/api/wallet/payments/${started.body.payment_id}`)).status).toBe(404);
  });
});
