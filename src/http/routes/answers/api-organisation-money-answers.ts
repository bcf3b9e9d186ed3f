// What an organisation's calls, statistics and shared wallet answer (src/http/routes/api-organisation-money-routes.ts).
// The readers are the personal ones (src/accounts/usage-log-reader.ts, usage-stats-reader.ts, wallet-reader.ts)
// in a member's view: calls without the administrators' fields (user, channel, upstream model).
import { z } from 'zod';
import { pageOf, rowId } from './common-answers.ts';
import { paymentAnswer } from './api-payments-answers.ts';

const time = z.iso.datetime();
const count = z.number().int().nonnegative();

/** One call as a member reads it (usage-log-reader.ts logView). */
const call = z.object({
  id: rowId,
  created_at: time,
  request_id: z.string(),
  key_id: rowId.nullable(),
  key_name: z.string().nullable(),
  model: z.string(),
  endpoint: z.string(),
  stream: z.boolean(),
  status: z.number().int(),
  outcome: z.enum(['success', 'error']),
  latency_ms: z.number().int().nonnegative(),
  ttft_ms: z.number().int().nonnegative().nullable(),
  input_tokens: count,
  cached_tokens: count,
  cache_write_tokens: count,
  cache_write_1h_tokens: count,
  output_tokens: count,
  reasoning_tokens: count,
  cost_usd: z.number(),
  error: z.string().nullable(),
  error_code: z.string().nullable(),
});
export const organisationLogsAnswer = pageOf(call);

/** How the charge was computed (src/metering/charge-explanation.ts). */
const calculation = z.object({
  lines: z.array(z.object({
    item: z.string(),
    label: z.string(),
    quantity: z.number(),
    unit_price_usd: z.number(),
    per: z.string(),
    amount_usd: z.number(),
    description: z.string(),
  })),
  tier: z.object({ prompt_tokens: z.number().int(), above_prompt_tokens: z.number().int().nullable() }).nullable(),
  subtotal_usd: z.number(),
  group_ratio: z.number(),
  total_usd: z.number(),
  charged_usd: z.number(),
  prices_changed: z.boolean(),
  text: z.string(),
});

export const organisationLogAnswer = call.extend({
  calculation,
  /** The channels tried, in order (a member's view: without channel names). */
  attempts: z.array(z.object({
    attempt: z.number().int().positive(),
    model: z.string().optional(),
    status: z.number().int().nullable(),
    outcome: z.string().optional(),
    error: z.string().nullable(),
    latency_ms: z.number().optional(),
  })),
});

const counters = { requests: count, errors: count, inputTokens: count, outputTokens: count, costMicros: z.number().int(), costUsd: z.number() };

/** usage-stats-reader.ts readStatsReport, with the scope, the sums per member, and from/to as epoch milliseconds. */
export const organisationStatsAnswer = z.object({
  /** organisation: every member's calls (owners and admins); member: the calls of my keys. */
  scope: z.enum(['organisation', 'member']),
  // src/metering/metering-rows.ts STAT_BUCKETS.
  bucket: z.enum(['minute', 'hour', 'day']),
  from: z.number().int(),
  to: z.number().int(),
  /** Requests and tokens per minute now. */
  rpm: z.number(),
  tpm: z.number(),
  totals: z.object({ ...counters, avgRpm: z.number(), avgTpm: z.number() }),
  series: z.array(z.object({ start: z.number().int(), ...counters })),
  by_model: z.array(z.object({ model: z.string(), ...counters })),
  /** key_id 0 sums the calls made without a key (src/metering/metering-rows.ts). */
  by_key: z.array(z.object({ key_id: z.number().int().nonnegative(), key_name: z.string().nullable(), ...counters })),
  /** The keys past those listed, summed; null when every key is listed. */
  by_key_rest: z.object({ keys: z.number().int().positive(), ...counters }).nullable(),
  by_member: z.array(z.object({ member_user_id: rowId, requests: count, errors: count, cost_usd: z.number() })),
});

/** wallet-reader.ts: the summary and a page of the ledger (charges summed per day, with their count). */
export const organisationWalletAnswer = z.object({
  balance_usd: z.number(),
  total_usage_usd: z.number(),
  requests: count,
  ledger: pageOf(z.object({
    /** topup, grant, refund, redemption; charges for a day's calls summed. */
    kind: z.string(),
    amount_usd: z.number(),
    at: time,
    note: z.string().nullable(),
    reference: z.string().nullable(),
    count: count.optional(),
  })),
});

export const organisationPaymentsAnswer = pageOf(paymentAnswer.pick({ id: true, amount_usd: true, refunded_usd: true, status: true, receipt_url: true, created_at: true }));
