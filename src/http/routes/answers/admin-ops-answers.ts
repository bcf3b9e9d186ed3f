// What the operator's routes answer (admin-ops-routes.ts): the platform overview, a channel's balance and
// model list as its upstream reports them, and testing every channel at once.
import { z } from 'zod';
import { rowId } from './common-answers.ts';
import { channelStatus, isoTime } from './admin-answers.ts';
import { channelTestAnswer } from './admin-catalog-answers.ts';

const count = z.number().int().nonnegative();
const usd = z.number();

/** A channel's health in the overview: status, circuit breaker (this instance), failed calls of the last hour. */
const overviewChannel = z.object({
  id: rowId,
  name: z.string(),
  type: z.string(),
  status: channelStatus,
  status_reason: z.string().nullable(),
  breaker: z.enum(['closed', 'open', 'half-open']),
  failed_attempts_last_hour: count,
  /** True when the hour held more failed calls than are read: the count is exact since failed_attempts_since. */
  failed_attempts_counted_partly: z.boolean(),
  failed_attempts_since: isoTime,
  last_error: z.object({ at: isoTime, status: z.number().int().nullable(), code: z.string().nullable(), message: z.string().nullable() }).nullable(),
});

/** GET /api/admin/overview (src/admin/platform-overview.ts). */
export const overviewAnswer = z.object({
  bucket: z.enum(['minute', 'hour', 'day']),
  from: isoTime,
  to: isoTime,
  traffic: z.object({ requests: count, errors: count, input_tokens: count, output_tokens: count, rpm: z.number().nonnegative(), tpm: z.number().nonnegative() }),
  cost_usd: usd,
  /** Card top-ups completed (less what was refunded of them) and codes redeemed in the period. */
  revenue: z.object({
    total_usd: usd,
    topups: z.object({ count, amount_usd: usd, refunded_usd: usd }),
    redemptions: z.object({ count, amount_usd: usd }),
  }),
  series: z.array(z.object({ start: isoTime, requests: count, errors: count, cost_usd: usd })),
  top_models: z.array(z.object({ model: z.string(), requests: count, errors: count, input_tokens: count, output_tokens: count, cost_usd: usd })),
  top_users: z.array(z.object({ user_id: rowId, name: z.string().nullable(), email: z.string().nullable(), requests: count, errors: count, cost_usd: usd })),
  channels: z.array(overviewChannel),
});

/** GET /api/admin/channels/:id/balance: the balance the upstream reports, or why there is none. */
export const channelBalanceAnswer = z.discriminatedUnion('available', [
  z.object({
    channel: z.string(),
    checked_at: isoTime,
    available: z.literal(true),
    balance_usd: usd,
    limit_usd: usd.nullable(),
    used_usd: usd.nullable(),
    /** Which billing API answered. */
    source: z.enum(['subscription', 'credit_grants']),
  }),
  z.object({ channel: z.string(), checked_at: isoTime, available: z.literal(false), reason: z.string() }),
]);

/** GET /api/admin/channels/:id/upstream-models: the ids the upstream lists, with which the channel serves already. */
export const upstreamModelsAnswer = z.discriminatedUnion('available', [
  z.object({ channel: z.string(), available: z.literal(true), models: z.array(z.object({ id: z.string(), served: z.boolean() })) }),
  /** status: the upstream's HTTP status, null when it gave none (or the type has no model list). */
  z.object({ channel: z.string(), available: z.literal(false), status: z.number().int().nullable(), reason: z.string() }),
]);

/** POST /api/admin/channels/test-all: each channel tested, and those not loaded (their credential cannot be read). */
export const testAllAnswer = z.object({
  /** Each as POST /api/admin/channels/:id/test answers, with its id ('' as model when it serves none). */
  data: z.array(channelTestAnswer.extend({ channel_id: rowId })),
  passed: count,
  failed: count,
  skipped: z.array(z.object({ channel_id: rowId, reason: z.string() })),
});
