// An organisation's calls, statistics and shared wallet (issue 34). Owners and admins read every member's
// calls and statistics (with a by_member breakdown); other members read those of the keys they hold. The
// wallet (ledger, payments) is the owners' and billing members'; they top it up with Stripe Checkout or a
// redemption code, through the same services as a personal wallet, aimed at the organisation's account.
import { z } from 'zod';
import { type ApiRouter, lazyAnswer } from '../api-route.ts';
import type { PaymentsDeps } from '../../payments/payments-deps.ts';
import { MANAGERS, PAYERS, isManager, membershipFor } from '../../accounts/organisations.ts';
import type { MembershipRow } from '../../db/repositories/organisations.ts';
import { keyHolders, memberKeyIds } from '../../db/repositories/organisation-keys.ts';
import { listWalletPayments } from '../../db/repositories/organisation-wallet.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { readLogDetail, readLogPage } from '../../accounts/usage-log-reader.ts';
import { MAX_KEYS_LISTED, readStatsReport } from '../../accounts/usage-stats-reader.ts';
import { readLedgerPage, readWalletSummary } from '../../accounts/wallet-reader.ts';
import { startTopUp } from '../../payments/topups.ts';
import { redeemCode } from '../../payments/redemption-codes.ts';
import { apiNotFound, invalidRequest } from '../../gateway-errors.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const apiOrganisationMoneyAnswers = () => import('./answers/api-organisation-money-answers.ts');
const apiPaymentsAnswers = () => import('./answers/api-payments-answers.ts');

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const orgParams = z.object({ id });
const time = z.string().max(40).refine((text) => /^\d{1,16}$/.test(text) || !Number.isNaN(Date.parse(text)), 'expected an ISO 8601 date-time or epoch milliseconds')
  .transform((text) => (/^\d{1,16}$/.test(text) ? Number(text) : Date.parse(text)));
const logQuery = z.object({
  from: time.optional(),
  to: time.optional(),
  key_id: id.optional(),
  member_id: id.optional(),
  model: z.string().min(1).max(200).optional(),
  outcome: z.enum(['success', 'error']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(100).optional(),
}).strict();

export function apiOrganisationMoneyRoutes(api: ApiRouter, deps: PaymentsDeps): void {
  const tag = 'Organisations';
  /** The keys whose calls the caller may read: null for every key (owners, admins), else the ones they hold. */
  const readableKeys = async (membership: MembershipRow, userId: number, memberId?: number): Promise<number[] | null> => {
    if (!isManager(membership)) {
      if (memberId !== undefined && memberId !== userId) return [];
      return memberKeyIds(deps.db, membership.wallet_user_id, userId);
    }
    return memberId === undefined ? null : memberKeyIds(deps.db, membership.wallet_user_id, memberId);
  };

  api.route({
    method: 'GET', url: '/api/orgs/:id/logs', tag, access: 'verified', params: orgParams, query: logQuery,
    summary: "The organisation's calls, newest first (every member's for owners and admins, filter member_id; else the calls of my keys).",
    answer: lazyAnswer(apiOrganisationMoneyAnswers, (m) => m.organisationLogsAnswer),
    handler: async ({ caller, params, query }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id);
      const keyIds = await readableKeys(membership, caller.user.id, query.member_id);
      return readLogPage(deps.db, { ...query, ...(keyIds === null ? {} : { key_ids: keyIds }) }, membership.wallet_user_id, query.limit, query.cursor);
    },
  });
  api.route({
    method: 'GET', url: '/api/orgs/:id/logs/:log_id', tag, access: 'verified', params: z.object({ id, log_id: id }), summary: 'One call of the organisation, with its attempts and charge.',
    answer: lazyAnswer(apiOrganisationMoneyAnswers, (m) => m.organisationLogAnswer),
    handler: async ({ caller, params }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id);
      const detail = await readLogDetail(deps.db, params.log_id, membership.wallet_user_id);
      const keyIds = await readableKeys(membership, caller.user.id);
      if (keyIds !== null && (detail.key_id === null || !keyIds.includes(detail.key_id))) throw apiNotFound('Log entry');
      return detail;
    },
  });
  api.route({
    method: 'GET', url: '/api/orgs/:id/stats', tag, access: 'verified', params: orgParams,
    summary: "Requests, errors, cost and tokens of the organisation, with by_member (owners and admins), or of my keys in it.",
    query: z.object({ bucket: z.enum(['minute', 'hour', 'day']).default('hour'), from: time.optional(), to: time.optional(), member_id: id.optional() }).strict(),
    answer: lazyAnswer(apiOrganisationMoneyAnswers, (m) => m.organisationStatsAnswer),
    handler: async ({ caller, params, query }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id);
      const to = query.to ?? Date.now();
      const from = query.from ?? to - 86_400_000;
      if (from > to) throw invalidRequest("'from' must not be after 'to'.", 'from', 'invalid_value');
      const keyIds = await readableKeys(membership, caller.user.id, query.member_id);
      const scope = keyIds === null ? { kind: 'user' as const, userId: membership.wallet_user_id } : { kind: 'keys' as const, userId: membership.wallet_user_id, keyIds };
      const report = await readStatsReport(deps.db, scope, query.bucket, from, to, MAX_KEYS_LISTED);
      return { scope: keyIds === null ? 'organisation' as const : 'member' as const, ...report, by_member: await byMember(membership, report.by_key), from, to };
    },
  });

  // Sums by_key per holder: each key belongs to one member (the one who made it).
  const byMember = async (membership: MembershipRow, byKey: readonly { key_id: number | null; requests: number; errors: number; costUsd: number; costMicros?: number }[]) => {
    const holders = await keyHolders(deps.db, membership.wallet_user_id);
    const sums = new Map<number, { member_user_id: number; requests: number; errors: number; cost_micros: number }>();
    for (const row of byKey) {
      const holder = row.key_id === null ? undefined : holders.get(row.key_id);
      if (holder === undefined || holder === null) continue;
      const sum = sums.get(holder) ?? { member_user_id: holder, requests: 0, errors: 0, cost_micros: 0 };
      sum.requests += row.requests;
      sum.errors += row.errors;
      sum.cost_micros += row.costMicros ?? Math.round(row.costUsd * 1_000_000);
      sums.set(holder, sum);
    }
    return [...sums.values()].sort((a, b) => b.cost_micros - a.cost_micros || a.member_user_id - b.member_user_id)
      .map((sum) => ({ member_user_id: sum.member_user_id, requests: sum.requests, errors: sum.errors, cost_usd: sum.cost_micros / 1_000_000 }));
  };

  api.route({
    method: 'GET', url: '/api/orgs/:id/wallet', tag, access: 'verified', params: orgParams, summary: "The shared wallet: balance, usage and its ledger (owners, admins and billing).",
    query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().max(100).optional() }).strict(),
    answer: lazyAnswer(apiOrganisationMoneyAnswers, (m) => m.organisationWalletAnswer),
    handler: async ({ caller, params, query }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id, [...new Set([...PAYERS, ...MANAGERS])]);
      return {
        ...await readWalletSummary(deps.db, membership.wallet_user_id, await deps.accounting.balance(membership.wallet_user_id)),
        ledger: await readLedgerPage(deps.db, membership.wallet_user_id, query.limit, query.cursor),
      };
    },
  });
  api.route({
    method: 'POST', url: '/api/orgs/:id/wallet/topup', tag, access: 'verified', params: orgParams, status: 201,
    summary: "Top up the shared wallet by card (owners and billing): a Stripe Checkout Session, credited by Stripe's webhook.",
    body: z.object({ amount_usd: z.number().int().min(1) }).strict(),
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.topUpStartedAnswer),
    handler: async ({ caller, params, body }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id, PAYERS);
      const wallet = await findUserById(deps.db, membership.wallet_user_id);
      if (!wallet) throw apiNotFound('Organisation');
      return startTopUp(deps, wallet, body.amount_usd, { returnPath: `/orgs/${membership.id}`, customerEmail: caller.user.email });
    },
  });
  api.route({
    method: 'POST', url: '/api/orgs/:id/wallet/redeem', tag, access: 'verified', params: orgParams, summary: 'Redeem a code into the shared wallet (owners and billing).',
    body: z.object({ code: z.string().trim().min(1).max(100) }).strict(),
    answer: lazyAnswer(apiPaymentsAnswers, (m) => m.redeemedAnswer),
    handler: async ({ caller, params, body }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id, PAYERS);
      const { amountMicros } = await redeemCode(deps, membership.wallet_user_id, body.code);
      return { amount_usd: amountMicros / 1_000_000, balance_usd: (await deps.accounting.balance(membership.wallet_user_id)) / 1_000_000 };
    },
  });
  api.route({
    method: 'GET', url: '/api/orgs/:id/wallet/payments', tag, access: 'verified', params: orgParams, summary: "The shared wallet's card payments (owners and billing).",
    query: z.object({ cursor: z.coerce.number().int().positive().optional(), limit: z.coerce.number().int().min(1).max(200).optional() }).strict(),
    answer: lazyAnswer(apiOrganisationMoneyAnswers, (m) => m.organisationPaymentsAnswer),
    handler: async ({ caller, params, query }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id, PAYERS);
      const limit = query.limit ?? 50;
      const rows = await listWalletPayments(deps.db, membership.wallet_user_id, limit + 1, query.cursor);
      const page = rows.slice(0, limit);
      return {
        data: page.map((row) => ({ id: Number(row.id), amount_usd: Number(row.amount_micros) / 1_000_000, refunded_usd: Number(row.refunded_micros) / 1_000_000, status: row.status, receipt_url: row.receipt_url, created_at: new Date(Number(row.created_at)).toISOString() })),
        next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null,
      };
    },
  });
}
