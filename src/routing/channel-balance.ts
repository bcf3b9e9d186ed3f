// A channel's remaining balance, read from the upstream where its provider declares a billing API
// (OpenAI-compatible servers such as new-api and one-api; `ProviderDefinition.billing`). As those servers and
// the gateways that read them do: the subscription's hard limit minus the usage since the start of the
// account's history (the usage API's total_usage is in cents), or else the credit summary's total_available.
// Money read from an upstream is converted to micro-USD once, rounded down (never shows more than there is).
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import type { RoutedChannel } from './routed-channel.ts';
import { upstreamGetJson } from './upstream-get.ts';

type ChannelBalance =
  | { available: true; balance_usd: number; limit_usd: number | null; used_usd: number | null; source: 'subscription' | 'credit_grants' }
  | { available: false; reason: string };

/** How far back the usage is summed: the usage API needs a start date; 100 days is what resellers accept. */
const USAGE_DAYS = 100;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
// Rounded down to a micro-dollar; the small epsilon keeps 100 - 12.34 (87.66 less a binary hair) at 87.66.
const toUsd = (usd: number) => Math.floor(usd * 1_000_000 + 1e-6) / 1_000_000;

export async function readChannelBalance(agents: UpstreamAgents, channel: RoutedChannel, now = Date.now()): Promise<ChannelBalance> {
  const billing = channel.provider.billing;
  if (!billing) return { available: false, reason: `a ${channel.type} upstream has no balance API` };
  const subscription = await upstreamGetJson(agents, channel, billing.subscription);
  const limit = subscription.ok ? finite((subscription.json as { hard_limit_usd?: unknown } | null)?.hard_limit_usd) : null;
  if (limit !== null) {
    const usage = await upstreamGetJson(agents, channel, `${billing.usage}?start_date=${day(now - USAGE_DAYS * 86_400_000)}&end_date=${day(now + 86_400_000)}`);
    const cents = usage.ok ? finite((usage.json as { total_usage?: unknown } | null)?.total_usage) : null;
    if (cents !== null) return { available: true, balance_usd: toUsd(limit - cents / 100), limit_usd: toUsd(limit), used_usd: toUsd(cents / 100), source: 'subscription' };
  }
  const grants = await upstreamGetJson(agents, channel, billing.creditGrants);
  const summary = grants.ok ? (grants.json as { total_available?: unknown; total_granted?: unknown; total_used?: unknown } | null) : null;
  const total = finite(summary?.total_available);
  if (total !== null) {
    const granted = finite(summary?.total_granted);
    const used = finite(summary?.total_used);
    return { available: true, balance_usd: toUsd(total), limit_usd: granted === null ? null : toUsd(granted), used_usd: used === null ? null : toUsd(used), source: 'credit_grants' };
  }
  const failure = !subscription.ok ? subscription : !grants.ok ? grants : null;
  const said = failure ? (failure.status === null ? `: ${failure.error}` : ` (HTTP ${failure.status})`) : '';
  return { available: false, reason: `the upstream does not report a balance${said}` };
}
