// What a verified Stripe event does. Every change is guarded by the payment's own state inside one
// transaction (a conditional update), so replays, duplicates, concurrent deliveries to one or several
// instances and events out of order never credit or debit twice:
//  - checkout.session.completed (paid) and async_payment_succeeded: pending → completed, plus one
//    'topup' ledger row for the session's amount_total;
//  - async_payment_failed and expired: pending → failed (a completed payment stays completed);
//  - charge.refunded: the refunded amount (cumulative on the charge) beyond what was already debited
//    becomes one 'refund' ledger row; the balance may go below zero;
//  - charge.succeeded: remembers the receipt link; anything else is acknowledged and ignored.
import type Stripe from 'stripe';
import { gatewayError } from '../gateway-errors.ts';
import type { PaymentsDeps } from './payments-deps.ts';
import { applyWalletEntry } from './wallet-entries.ts';
import { failPendingSession, findPaymentByIntent, findPaymentBySession, setReceiptByIntent, setSessionIntentOnce, updatePaymentInStatus, updatePaymentRefunded } from '../db/repositories/payments.ts';

type EventOutcome = 'credited' | 'debited' | 'failed' | 'updated' | 'duplicate' | 'ignored';

/** Stripe retries any non-2xx: used for a refund that arrives before its payment's completion. */
const retryLater = (message: string) => gatewayError('GW_ERR_WEBHOOK_RETRY', { message, code: 'retry_later' });

const CENTS_TO_MICROS = 10_000;

export async function applyStripeEvent(deps: PaymentsDeps, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.data.object.payment_status === 'paid' ? creditSession(deps, event.data.object) : rememberIntent(deps, event.data.object);
    case 'checkout.session.async_payment_succeeded':
      return creditSession(deps, event.data.object);
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return failSession(deps, event.data.object);
    case 'charge.refunded':
      return refundCharge(deps, event.data.object);
    case 'charge.succeeded':
      return rememberReceipt(deps, event.data.object);
    default:
      return 'ignored';
  }
}

const intentId = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

async function findPayment(deps: PaymentsDeps, session: Stripe.Checkout.Session) {
  return findPaymentBySession(deps.db, 'stripe', session.id);
}

async function creditSession(deps: PaymentsDeps, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const payment = await findPayment(deps, session);
  if (!payment) {
    deps.logger.warn({ session: session.id }, 'stripe webhook for a checkout session this gateway did not start: ignored');
    return 'ignored';
  }
  if (session.currency !== 'usd' || typeof session.amount_total !== 'number' || !Number.isInteger(session.amount_total) || session.amount_total <= 0) {
    deps.logger.error({ session: session.id, currency: session.currency, amount: session.amount_total }, 'stripe checkout session with an unexpected amount: not credited');
    return 'ignored';
  }
  const amountMicros = session.amount_total * CENTS_TO_MICROS;
  const now = Date.now();
  const credited = await applyWalletEntry(deps.db, deps.accounting,
    { userId: payment.user_id, amountMicros, kind: 'topup', reference: `stripe:${session.id}`, note: `Card top-up ${(amountMicros / 1_000_000).toFixed(2)} USD` },
    (trx) => updatePaymentInStatus(trx, payment.id, ['pending', 'failed'], { status: 'completed', completed_at: now, updated_at: now, amount_micros: amountMicros, payment_intent: intentId(session.payment_intent) }));
  if (!credited) return 'duplicate';
  deps.logger.info({ paymentId: payment.id, userId: payment.user_id, amountMicros }, 'top-up credited');
  return 'credited';
}

async function rememberIntent(deps: PaymentsDeps, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const intent = intentId(session.payment_intent);
  if (!intent) return 'ignored';
  return (await setSessionIntentOnce(deps.db, 'stripe', session.id, intent)) ? 'updated' : 'ignored';
}

async function failSession(deps: PaymentsDeps, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  return (await failPendingSession(deps.db, 'stripe', session.id)) ? 'failed' : 'duplicate';
}

async function rememberReceipt(deps: PaymentsDeps, charge: Stripe.Charge): Promise<EventOutcome> {
  const intent = intentId(charge.payment_intent);
  if (!intent || !charge.receipt_url) return 'ignored';
  return (await setReceiptByIntent(deps.db, intent, charge.receipt_url)) ? 'updated' : 'ignored';
}

async function refundCharge(deps: PaymentsDeps, charge: Stripe.Charge): Promise<EventOutcome> {
  const intent = intentId(charge.payment_intent);
  if (!intent) return 'ignored';
  const payment = await findPaymentByIntent(deps.db, intent);
  if (!payment) {
    // The completion that names this PaymentIntent may still be on its way; if it never comes, the
    // payment was not one of ours and Stripe stops retrying after a few days.
    throw retryLater('This refund names a payment the gateway has not seen completed yet; Stripe will deliver it again.');
  }
  if (payment.status !== 'completed' && payment.status !== 'refunded') throw retryLater('This refund arrived before its payment was credited; Stripe will deliver it again.');
  const target = Math.min(charge.amount_refunded * CENTS_TO_MICROS, Number(payment.amount_micros));
  const already = Number(payment.refunded_micros);
  const debit = target - already;
  if (debit <= 0) return 'duplicate';
  const now = Date.now();
  const applied = await applyWalletEntry(deps.db, deps.accounting,
    { userId: payment.user_id, amountMicros: -debit, kind: 'refund', reference: `stripe-refund:${charge.id}:${target}`, note: `Card payment refunded: ${(debit / 1_000_000).toFixed(2)} USD` },
    // Guarded by the amount read: a concurrent delivery of the same refund updates nothing here.
    (trx) => updatePaymentRefunded(trx, payment.id, already, { refunded_micros: target, status: 'refunded', updated_at: now, ...(charge.receipt_url ? { receipt_url: charge.receipt_url } : {}) }));
  if (!applied) return 'duplicate';
  deps.logger.info({ paymentId: payment.id, userId: payment.user_id, debitMicros: debit }, 'refund debited');
  return 'debited';
}
