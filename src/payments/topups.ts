// A card top-up: a pending payment row, then a Stripe Checkout Session for exactly that many whole
// dollars. The wallet is credited only by the webhook (stripe-events.ts), never by the browser coming back.
import { randomBytes } from 'node:crypto';
import type { UserRow } from '../db/schema.ts';
import { invalidRequest, gatewayError } from '../gateway-errors.ts';
import { getSetting } from '../db/repositories/settings.ts';
import { maxTopUpSettingColumn } from '../db/json-columns.ts';
import { insertPendingPayment, markPaymentFailed, setPaymentCheckout } from '../db/repositories/payments.ts';
import { DEFAULT_MAX_TOPUP_USD, MAX_TOPUP_SETTING, type PaymentsDeps } from './payments-deps.ts';

const cardPaymentsOff = () =>
  gatewayError('GW_ERR_CARD_PAYMENTS_OFF', {
    message: 'Card payments are not configured on this gateway. Ask an administrator for a redemption code.',
    code: 'card_payments_not_configured',
  });

const providerFailed = (cause: unknown) =>
  gatewayError('GW_ERR_PAYMENT_PROVIDER', {
    message: 'The payment provider could not start the checkout. Nothing was charged; please try again.',
    code: 'payment_provider_error',
    cause,
  });

export async function maxTopUpUsd(deps: Pick<PaymentsDeps, 'db'>): Promise<number> {
  const value = await getSetting(deps.db, MAX_TOPUP_SETTING, maxTopUpSettingColumn);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : DEFAULT_MAX_TOPUP_USD;
}

/** `user` is the wallet's account (an organisation's too); Checkout returns to `returnPath` and prefills `customerEmail`. */
export async function startTopUp(deps: PaymentsDeps, user: UserRow, amountUsd: number, options: { returnPath?: string; customerEmail?: string | null } = {}): Promise<{ checkout_url: string; payment_id: number }> {
  if (!deps.stripe) throw cardPaymentsOff();
  const max = await maxTopUpUsd(deps);
  if (amountUsd > max) throw invalidRequest(`Invalid 'amount_usd': the largest top-up is ${max} USD.`, 'amount_usd', 'amount_too_large');
  const now = Date.now();
  // The session id is not known before Stripe answers; a unique placeholder holds the row meanwhile.
  const paymentId = await insertPendingPayment(deps.db, user.id, 'stripe', `pending:${randomBytes(12).toString('hex')}`, amountUsd * 1_000_000, now);
  const walletUrl = `${deps.publicUrl()}${options.returnPath ?? '/wallet'}`;
  let session;
  try {
    session = await deps.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: amountUsd * 100, product_data: { name: `Model gateway balance: ${amountUsd} USD` } } }],
      client_reference_id: String(user.id),
      metadata: { user_id: String(user.id), payment_id: String(paymentId) },
      ...((options.customerEmail ?? user.email) ? { customer_email: (options.customerEmail ?? user.email)! } : {}),
      success_url: `${walletUrl}?payment=success&topup=${paymentId}`,
      cancel_url: `${walletUrl}?payment=cancel&topup=${paymentId}`,
    }, { idempotencyKey: `gateway-topup-${paymentId}` });
  } catch (error) {
    await markPaymentFailed(deps.db, paymentId);
    deps.logger.warn({ err: error, paymentId }, 'stripe checkout session could not be created');
    throw providerFailed(error);
  }
  await setPaymentCheckout(deps.db, paymentId, session.id, session.url);
  if (!session.url) throw providerFailed(new Error('checkout session without a url'));
  return { checkout_url: session.url, payment_id: paymentId };
}
