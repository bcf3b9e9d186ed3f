// The administrators' platform overview (issue 31, item 2): traffic and cost over a period from the
// statistics roll-ups (docs/decisions/0017), the top users from the per-key roll-up, revenue (card top-ups
// completed and codes redeemed in the period, each read through its own time index), and each channel's
// health (status, circuit breaker, errors of the last hour). No read walks a big table from end to end:
// the usage log is read only for the last hour's errors, newest first, and at most RECENT_ERRORS_READ rows
// (past that, the failed attempts are counted exactly over a shorter window that the answer names).
import { listChannelStatuses } from '../db/repositories/channels.ts';
import { sumRevenue, sumTopUsers } from '../db/repositories/platform-sums.ts';
import { listRecentFailedCalls } from '../db/repositories/recent-failures.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { readStatsReport } from '../accounts/usage-stats-reader.ts';
import { coveringSpans, KEY_ROLLUP_LEVELS } from '../metering/stat-ranges.ts';
import type { StatBucket } from '../metering/statistics.ts';

const TOP_LISTED = 10;
/** Failed calls of the last hour read for the channels' health, newest first. */
const RECENT_ERRORS_READ = 500;
const RECENT_ERRORS_WINDOW_MS = 3_600_000;

type BreakerState = 'closed' | 'open' | 'half-open';

const usd = (micros: number) => micros / 1_000_000;

export async function readPlatformOverview(db: Db, breakerState: (channelId: number) => BreakerState, bucket: StatBucket, from: number, to: number, now = Date.now()) {
  const [stats, topUsers, revenue, channels] = await Promise.all([
    readStatsReport(db, { kind: 'platform' }, bucket, from, to, 1),
    readTopUsers(db, bucket, from, to),
    readRevenue(db, from, to),
    readChannelHealth(db, breakerState, now),
  ]);
  const topModels = [...stats.by_model].sort((a, b) => b.costMicros - a.costMicros || b.requests - a.requests || a.model.localeCompare(b.model)).slice(0, TOP_LISTED);
  return {
    bucket,
    from: stats.from,
    to: stats.to,
    traffic: {
      requests: stats.totals.requests,
      errors: stats.totals.errors,
      input_tokens: stats.totals.inputTokens,
      output_tokens: stats.totals.outputTokens,
      rpm: stats.rpm,
      tpm: stats.tpm,
    },
    cost_usd: stats.totals.costUsd,
    revenue,
    series: stats.series.map((point) => ({ start: new Date(point.start).toISOString(), requests: point.requests, errors: point.errors, cost_usd: point.costUsd })),
    top_models: topModels.map((row) => ({ model: row.model, requests: row.requests, errors: row.errors, input_tokens: row.inputTokens, output_tokens: row.outputTokens, cost_usd: row.costUsd })),
    top_users: topUsers,
    channels,
  };
}

/** The users who cost most in the period, from usage_stats_keys over the coarsest buckets that cover it. */
async function readTopUsers(db: Db, bucket: StatBucket, from: number, to: number) {
  const spans = coveringSpans(bucket, from, to, KEY_ROLLUP_LEVELS);
  if (spans.length === 0) return [];
  const rows = await sumTopUsers(db, spans, TOP_LISTED);
  return rows.map((row) => ({ user_id: Number(row.user_id), name: row.name ?? null, email: row.email ?? null, requests: Number(row.requests), errors: Number(row.errors), cost_usd: usd(Number(row.cost_micros)) }));
}

/** Money that came in during the period: card top-ups (less what was refunded of them) and redeemed codes. */
async function readRevenue(db: Db, from: number, to: number) {
  const { cards, codes } = await sumRevenue(db, from, to);
  const topups = Number(cards?.amount ?? 0) - Number(cards?.refunded ?? 0);
  const redeemed = Number(codes?.amount ?? 0);
  return {
    total_usd: usd(topups + redeemed),
    topups: { count: Number(cards?.count ?? 0), amount_usd: usd(topups), refunded_usd: usd(Number(cards?.refunded ?? 0)) },
    redemptions: { count: Number(codes?.count ?? 0), amount_usd: usd(redeemed) },
  };
}

interface FailedAttempt { at: number; status: number | null; code: string | null; message: string | null }

/**
 * Every channel with its status, its breaker on this instance, and its failed attempts of the last hour:
 * read from the calls that failed or failed over (each records its attempts with the channel's name; a call
 * that failed everywhere has no channel id of its own).
 */
async function readChannelHealth(db: Db, breakerState: (channelId: number) => BreakerState, now: number) {
  const since = now - RECENT_ERRORS_WINDOW_MS;
  const [channels, rows] = await Promise.all([
    listChannelStatuses(db),
    // Newest first through the created_at index, stopping after RECENT_ERRORS_READ such calls.
    listRecentFailedCalls(db, since, RECENT_ERRORS_READ),
  ]);
  // More failed calls in the hour than were read: the counts cover exactly the calls after the oldest one
  // read (the calls at that same millisecond may be cut between read and unread, so none of them counts),
  // and the window says so, rather than a lower bound over the whole hour.
  const capped = rows.length >= RECENT_ERRORS_READ;
  const windowStart = capped ? Number(rows[rows.length - 1]!.created_at) : since;
  const idByName = new Map(channels.map((channel) => [channel.name, channel.id]));
  const failures = new Map<number, { count: number; last: FailedAttempt }>();
  const note = (channelId: number | undefined, failure: FailedAttempt) => {
    if (channelId === undefined) return;
    const seen = failures.get(channelId);
    if (seen) seen.count += 1;
    else failures.set(channelId, { count: 1, last: failure });
  };
  for (const row of rows) {
    const at = Number(row.created_at);
    if (capped && at <= windowStart) continue;
    const attempts = row.attempts;
    if (attempts === null) {
      if (row.status >= 400 && row.channel_id !== null) note(Number(row.channel_id), { at, status: row.status, code: row.error_code, message: row.error });
      continue;
    }
    for (const attempt of attempts) {
      const failed = attempt.error !== null || attempt.status === null || attempt.status >= 400;
      if (failed) note(idByName.get(attempt.channel), { at, status: attempt.status, code: attempt.code ?? null, message: attempt.error });
    }
  }
  return channels.map((channel) => {
    const recent = failures.get(channel.id);
    return {
      id: channel.id,
      name: channel.name,
      type: channel.type,
      status: channel.status,
      status_reason: channel.status_reason,
      breaker: breakerState(channel.id),
      failed_attempts_last_hour: recent?.count ?? 0,
      // True when the hour held more failed calls than are read: the count is exact since failed_attempts_since.
      failed_attempts_counted_partly: capped,
      failed_attempts_since: new Date(windowStart).toISOString(),
      last_error: recent ? { at: new Date(recent.last.at).toISOString(), status: recent.last.status, code: recent.last.code, message: recent.last.message?.slice(0, 300) ?? null } : null,
    };
  });
}
