// Money in: card top-ups through Stripe Checkout, the Stripe webhook that credits them, redemption codes,
// and the payments' history for users and admins. Services in src/payments.
import { z } from 'zod';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import { apiNotFound, invalidRequest } from '../../gateway-errors.ts';
import { setSetting } from '../../db/repositories/settings.ts';
import { findUserPayment, listPaymentsWithUsers, listUserPayments } from '../../db/repositories/payments.ts';
import { MAX_TOPUP_SETTING, type PaymentsDeps } from '../../payments/payments-deps.ts';
import { maxTopUpUsd, startTopUp } from '../../payments/topups.ts';
import { applyStripeEvent } from '../../payments/stripe-events.ts';
import { createRedemptionCodes, listRedemptionCodes, redeemCode, revokeRedemptionCode } from '../../payments/redemption-codes.ts';
import type { PaymentRow } from '../../db/schema.ts';
import { recordAudit } from '../../admin/audit-log.ts';
import { actorOf } from './admin-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const apiPaymentsAnswers = () => import('./answers/api-payments-answers.ts');

/** Stripe's default tolerance: a signed event older than 5 minutes is refused (replay protection). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

function paymentView(row: PaymentRow) {
  return {
    id: Number(row.id),
    provider: row.provider,
    amount_usd: Number(row.amount_micros) / 1_000_000,
    refunded_usd: Number(row.refunded_micros) / 1_000_000,
    status: row.status,
    receipt_url: row.receipt_url,
    created_at: new Date(Number(row.created_at)).toISOString(),
    completed_at: row.completed_at === null ? null : new Date(Number(row.completed_at)).toISOString(),
  };
}

const cursorQuery = z.object({ cursor: z.coerce.number().int().positive().optional(), limit: z.coerce.number().int().min(1).max(200).optional() });

export function apiPaymentsRoutes(api: ApiRouter, deps: PaymentsDeps): void {
  const tag = 'Wallet';
  api.route({
    method: 'GET', url: '/api/wallet/topup', tag, access: 'verified', allowKeys: true, summary: 'Whether card top-ups are on, and the smallest and largest amount in whole USD.',
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.topUpOptionsAnswer),
    handler: async () => ({ enabled: deps.stripe !== null, min_usd: 1, max_usd: await maxTopUpUsd(deps) }),
  });
  api.route({
    method: 'POST', url: '/api/wallet/topup', tag, access: 'verified', status: 201,
    summary: 'Start a card top-up of a whole number of USD: answers the Stripe Checkout URL. The wallet is credited when Stripe confirms the payment.',
    body: z.object({ amount_usd: z.number().int('must be a whole number of US dollars').min(1, 'must be at least 1').max(1_000_000, 'is too large') }).strict(),
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.topUpStartedAnswer),
    handler: async ({ caller, body }) => startTopUp(deps, caller.user, body.amount_usd),
  });
  api.route({
    method: 'GET', url: '/api/wallet/payments', tag, access: 'verified', allowKeys: true, query: cursorQuery, summary: 'My card payments, newest first, with status and receipt link.',
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.paymentsAnswer),
    handler: async ({ caller, query }) => {
      const limit = query.limit ?? 50;
      const rows = await listUserPayments(deps.db, caller.user.id, limit + 1, query.cursor || undefined);
      const page = rows.slice(0, limit);
      return { data: page.map(paymentView), next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null };
    },
  });
  api.route({
    method: 'GET', url: '/api/wallet/payments/:id', tag, access: 'verified', allowKeys: true, params: idParams, summary: 'One of my payments (for the page that waits for a checkout to be confirmed).',
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.paymentAnswer),
    handler: async ({ caller, params }) => {
      const row = await findUserPayment(deps.db, caller.user.id, params.id);
      if (!row) throw apiNotFound('Payment');
      return paymentView(row);
    },
  });
  api.route({
    method: 'POST', url: '/api/wallet/redeem', tag, access: 'verified', summary: 'Redeem a code: its amount is added to my wallet, once.',
    body: z.object({ code: z.string().trim().min(1).max(200) }).strict(),
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.redeemedAnswer),
    handler: async ({ caller, body }) => {
      const { amountMicros } = await redeemCode(deps, caller.user.id, body.code);
      return { amount_usd: amountMicros / 1_000_000, balance_usd: (await deps.accounting.balance(caller.user.id)) / 1_000_000 };
    },
  });
  api.route({
    method: 'POST', url: '/api/payments/stripe/webhook', tag: 'Payments', access: 'public',
    summary: "Stripe's webhook. The raw body is verified against the Stripe-Signature header (5-minute tolerance); a bad or missing signature gets 400 and changes nothing.",
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.webhookAnswer),
    handler: async ({ request }) => {
      if (!deps.stripe || !deps.webhookSecret) throw invalidRequest('Stripe is not configured on this gateway.', null, 'payments_not_configured');
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !request.rawBody) throw invalidRequest('Missing Stripe-Signature header or body.', 'stripe-signature', 'invalid_signature');
      let event;
      try {
        event = deps.stripe.webhooks.constructEvent(request.rawBody, signature, deps.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw invalidRequest('The Stripe-Signature does not match this body, or the event is too old.', 'stripe-signature', 'invalid_signature');
      }
      return { received: true as const, outcome: await applyStripeEvent(deps, event) };
    },
  });

  const admin = 'Administration: payments';
  api.route({
    method: 'GET', url: '/api/admin/payments', tag: admin, access: 'admin', allowKeys: true, query: cursorQuery, summary: 'Every payment, newest first.',
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.adminPaymentsAnswer),
    handler: async ({ query }) => {
      const limit = query.limit ?? 50;
      const rows = await listPaymentsWithUsers(deps.db, limit + 1, query.cursor || undefined);
      const page = rows.slice(0, limit);
      return { data: page.map((row) => ({ ...paymentView(row), user_id: Number(row.user_id), user_email: row.user_email, user_name: row.user_name })), next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null };
    },
  });
  api.route({
    method: 'PUT', url: '/api/admin/payments/settings', tag: admin, access: 'admin', allowKeys: true, summary: 'The largest card top-up, in whole USD.',
    body: z.object({ max_topup_usd: z.number().int('must be a whole number of US dollars').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1,000,000') }).strict(),
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.paymentSettingsAnswer),
    handler: async ({ caller, body }) => {
      const before = await maxTopUpUsd(deps);
      await setSetting(deps.db, MAX_TOPUP_SETTING, body.max_topup_usd);
      await recordAudit(deps.db, actorOf(caller), 'settings.max_topup', 'settings:max_topup_usd', { max_topup_usd: before }, { max_topup_usd: body.max_topup_usd });
      return { max_topup_usd: body.max_topup_usd };
    },
  });
  api.route({
    method: 'POST', url: '/api/admin/redemption-codes', tag: admin, access: 'admin', allowKeys: true, status: 201, summary: 'Create codes worth an amount each; the codes are in this answer only. Audited (never the codes).',
    body: z.object({ count: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1,000 per batch'), amount_usd: z.number().positive('must be more than 0').max(100_000, 'must be at most 100,000 USD').multipleOf(0.01, 'must be whole cents'), note: z.string().trim().max(200).optional() }).strict(),
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.codesCreatedAnswer),
    handler: async ({ caller, body }) => {
      // Whole cents were checked above, so this is the amount as typed, in micro-USD, not a rounding.
      const amountMicros = Math.round(body.amount_usd * 100) * 10_000;
      const created = await createRedemptionCodes(deps, { count: body.count, amountMicros, note: body.note ?? null, createdBy: caller.user.id });
      const [first, last] = [created.ids[0]!, created.ids.at(-1)!];
      await recordAudit(deps.db, actorOf(caller), 'redemption_codes.create', `redemption_codes:${first}-${last}`, null, {
        count: body.count, amount_usd: amountMicros / 1_000_000, total_usd: (amountMicros * body.count) / 1_000_000, note: body.note ?? null, first_id: first, last_id: last,
      });
      return { codes: created.codes, ids: created.ids, amount_usd: amountMicros / 1_000_000 };
    },
  });
  api.route({
    method: 'GET', url: '/api/admin/redemption-codes', tag: admin, access: 'admin', allowKeys: true,
    query: cursorQuery.extend({ state: z.enum(['unused', 'redeemed', 'revoked']).optional() }).strict(),
    summary: 'Codes created, newest first, a page at a time (cursor: next_cursor of the previous page; state to narrow); never the codes themselves.',
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.codesAnswer),
    handler: async ({ query }) => listRedemptionCodes(deps, { limit: query.limit ?? 50, before: query.cursor, state: query.state }),
  });
  api.route({
    method: 'POST', url: '/api/admin/redemption-codes/:id/revoke', tag: admin, access: 'admin', allowKeys: true, params: idParams,
    summary: 'Revoke an unused code: it is refused from now on. 409 when it was already redeemed or revoked. Audited.',
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.codeRevokedAnswer),
    handler: async ({ caller, params }) => {
      const code = await revokeRedemptionCode(deps, params.id, caller.user.id);
      await recordAudit(deps.db, actorOf(caller), 'redemption_code.revoke', `redemption_code:${code.id}`, { state: 'unused' }, { state: 'revoked', prefix: code.prefix, amount_usd: code.amount_usd, note: code.note });
      return { ...code, state: 'revoked' as const };
    },
  });
}
