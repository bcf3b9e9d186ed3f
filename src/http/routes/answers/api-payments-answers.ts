// What the payments routes answer (src/http/routes/api-payments-routes.ts): card top-ups through Stripe
// Checkout, payments (the user's and the administrators' list), the webhook's outcome and redemption codes
// (src/payments/redemption-codes.ts). USD amounts as numbers of dollars, times as ISO strings.
import { z } from 'zod';
import { pageOf, rowId } from './common-answers.ts';

const time = z.iso.datetime();
const usd = z.number().nonnegative();

export const topUpOptionsAnswer = z.object({ enabled: z.boolean(), min_usd: z.number().int().positive(), max_usd: z.number().int().positive() });

/** A started top-up: where to send the browser, and the payment the page then waits for. */
export const topUpStartedAnswer = z.object({ checkout_url: z.string(), payment_id: rowId });

/** What a redeemed code added and the wallet's balance after it. */
export const redeemedAnswer = z.object({ amount_usd: usd, balance_usd: z.number() });

// src/db/schema.ts PaymentsTable.status: completed is credited; refunded is credited, then (partly) refunded.
const paymentStatus = z.enum(['pending', 'completed', 'failed', 'refunded']);

export const paymentAnswer = z.object({
  id: rowId,
  provider: z.string(),
  amount_usd: usd,
  refunded_usd: usd,
  status: paymentStatus,
  receipt_url: z.string().nullable(),
  created_at: time,
  completed_at: time.nullable(),
});
export const paymentsAnswer = pageOf(paymentAnswer);

// src/payments/stripe-events.ts EventOutcome.
export const webhookAnswer = z.object({ received: z.literal(true), outcome: z.enum(['credited', 'debited', 'failed', 'updated', 'duplicate', 'ignored']) });

export const adminPaymentsAnswer = pageOf(paymentAnswer.extend({ user_id: rowId, user_email: z.string().nullable(), user_name: z.string() }));

export const paymentSettingsAnswer = z.object({ max_topup_usd: z.number().int().positive() });

/** New codes: the codes themselves, in this answer only. */
export const codesCreatedAnswer = z.object({ codes: z.array(z.string()), ids: z.array(rowId), amount_usd: usd });

const codeState = z.enum(['unused', 'redeemed', 'revoked']);

export const codesAnswer = pageOf(z.object({
  id: rowId,
  prefix: z.string(),
  amount_usd: usd,
  note: z.string().nullable(),
  state: codeState,
  created_at: time,
  redeemed_by: rowId.nullable(),
  redeemed_by_email: z.string().nullable(),
  redeemed_by_name: z.string().nullable(),
  redeemed_at: time.nullable(),
  revoked_at: time.nullable(),
}));

export const codeRevokedAnswer = z.object({ id: rowId, prefix: z.string(), amount_usd: usd, note: z.string().nullable(), state: z.literal('revoked') });
