// What /api/logs, /api/admin/logs, /api/stats and /api/wallet answer (src/http/routes/api-usage-routes.ts):
// calls as src/accounts/usage-log-reader.ts shows them (an administrator's with whose call and which
// channel), statistics as src/accounts/usage-stats-reader.ts sums them, the wallet and its ledger
// (src/accounts/wallet-reader.ts). Counts and tokens are integers, USD amounts numbers of dollars.
import { z } from 'zod';
import { micros, pageOf, rowId } from './common-answers.ts';

const count = z.number().int();

/** A call as a user sees it. */
const logRow = z.object({
  id: rowId,
  created_at: z.string(),
  request_id: z.string(),
  key_id: rowId.nullable(),
  key_name: z.string().nullable(),
  /** The model the client asked for. */
  model: z.string(),
  endpoint: z.string(),
  stream: z.boolean(),
  status: count,
  outcome: z.enum(['success', 'error']),
  latency_ms: count,
  ttft_ms: count.nullable(),
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

/** An administrator's view adds whose call it was and the channel that served it (or last tried). */
const adminFields = {
  user_id: rowId.nullable(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  channel_id: rowId.nullable(),
  channel: z.string().nullable(),
  upstream_model: z.string().nullable(),
};
const adminLogRow = logRow.extend(adminFields);

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
  tier: z.object({ prompt_tokens: count, above_prompt_tokens: count.nullable() }).nullable(),
  subtotal_usd: z.number(),
  group_ratio: z.number(),
  total_usd: z.number(),
  charged_usd: z.number(),
  /** True when today's prices no longer give what was charged. */
  prices_changed: z.boolean(),
  text: z.string(),
});

const attempt = {
  attempt: z.number().int().positive(),
  model: z.string().optional(),
  status: count.nullable(),
  outcome: z.string().optional(),
  error: z.string().nullable(),
  latency_ms: z.number().optional(),
};

export const logPageAnswer = pageOf(logRow);
export const adminLogPageAnswer = pageOf(adminLogRow);
export const logDetailAnswer = logRow.extend({ calculation, attempts: z.array(z.object(attempt)) });
export const adminLogDetailAnswer = adminLogRow.extend({ calculation, attempts: z.array(z.object({ ...attempt, channel: z.string().nullable() })) });

const counters = { requests: count, errors: count, inputTokens: count, outputTokens: count, costMicros: micros, costUsd: z.number() };

export const statsAnswer = z.object({
  scope: z.enum(['key', 'user', 'platform']),
  bucket: z.enum(['minute', 'hour', 'day']),
  /** The range, epoch milliseconds. */
  from: z.number(),
  to: z.number(),
  /** Requests and tokens per minute over the last 60 seconds. */
  rpm: count,
  tpm: count,
  totals: z.object({ ...counters, avgRpm: z.number(), avgTpm: z.number() }),
  /** One point per bucket with calls; `start` in epoch milliseconds. */
  series: z.array(z.object({ start: z.number(), ...counters })),
  by_model: z.array(z.object({ model: z.string(), ...counters })),
  /** The keys that cost most. */
  by_key: z.array(z.object({ key_id: count, key_name: z.string().nullable(), ...counters })),
  /** The other keys summed; null when every key is in by_key. */
  by_key_rest: z.object({ keys: count, ...counters }).nullable(),
});

export const walletAnswer = z.object({
  balance_usd: z.number(),
  total_usage_usd: z.number(),
  requests: count,
  /** Top-ups, grants, refunds and redemptions one by one; charges summed per day (`count` calls). */
  ledger: pageOf(z.object({
    kind: z.enum(['charge', 'refund', 'topup', 'grant', 'redemption', 'charges']),
    amount_usd: z.number(),
    at: z.string(),
    note: z.string().nullable(),
    reference: z.string().nullable(),
    count: count.optional(),
  })),
});
