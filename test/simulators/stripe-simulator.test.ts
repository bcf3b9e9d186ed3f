// The Stripe simulator, checked with the official `stripe` SDK as its client: what the SDK sends is what
// the simulator reads, and what the simulator signs the SDK verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { startStripeSimulator, type StripeSimulator } from './stripe-simulator.ts';

const secretKey = 'sk_test_simulator_key';
const webhookSecret = 'whsec_simulator_secret';
let simulator: StripeSimulator;
let stripe: Stripe;

beforeAll(async () => {
  simulator = await startStripeSimulator({ secretKey, webhookSecret });
  stripe = new Stripe(secretKey, { host: simulator.host, port: simulator.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
});
afterAll(async () => simulator?.close());

describe('the Stripe simulator, with the stripe SDK as client', () => {
  it('creates and retrieves a checkout session from the SDK form-encoded body', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 700, product_data: { name: 'Top-up' } } }],
      client_reference_id: 'user-7',
      metadata: { user_id: '7', payment_id: '3' },
      success_url: 'http://localhost/wallet?payment=success',
      cancel_url: 'http://localhost/wallet?payment=cancel',
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.amount_total).toBe(700);
    expect(session.url).toContain('/c/pay/');
    expect(simulator.requests.at(-1)?.body).toMatchObject({ metadata: { user_id: '7' }, line_items: [{ price_data: { unit_amount: '700', currency: 'usd' } }] });
    const again = await stripe.checkout.sessions.retrieve(session.id);
    expect(again.metadata).toEqual({ user_id: '7', payment_id: '3' });
  });

  it("answers a wrong secret key and an unknown session in Stripe's error shape", async () => {
    const wrong = new Stripe('sk_test_wrong', { host: simulator.host, port: simulator.port, protocol: 'http', maxNetworkRetries: 0 });
    await expect(wrong.checkout.sessions.retrieve('cs_test_x')).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    await expect(stripe.checkout.sessions.retrieve('cs_test_missing')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' });
  });

  it('signs events so that the SDK verifies them, and a wrong secret or a stale timestamp fails', () => {
    const { payload, header } = simulator.signedEvent('checkout.session.completed', { id: 'cs_test_1', object: 'checkout.session' });
    expect(stripe.webhooks.constructEvent(payload, header, webhookSecret, 300).type).toBe('checkout.session.completed');
    expect(() => stripe.webhooks.constructEvent(payload, header, 'whsec_other', 300)).toThrow();
    const stale = simulator.signedEvent('checkout.session.completed', { id: 'cs_test_1' }, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(() => stripe.webhooks.constructEvent(stale.payload, stale.header, webhookSecret, 300)).toThrow(/tolerance/i);
  });
});
