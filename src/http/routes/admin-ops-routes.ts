// The operator's view (issue 31, item 2): the platform overview, each channel's balance and model list as
// its upstream reports them, and testing every channel at once. Reads only, except that "test all" may turn
// back on the channels the gateway disabled itself that now pass (audited, as the single Test does).
import { z } from 'zod';
import type { GatewayState } from '../../gateway-state.ts';
import type { UpstreamAgents } from '../../upstream/upstream-agent.ts';
import type { CircuitBreakers } from '../../routing/circuit-breaker.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { type ApiRouter, lazyAnswer, idParams, timeParam } from '../api-route.ts';
import { readPlatformOverview } from '../../admin/platform-overview.ts';
import { readChannelBalance } from '../../routing/channel-balance.ts';
import { fetchChannelModels } from '../../routing/channel-model-list.ts';
import { testChannels } from '../../routing/test-channels.ts';
import { setChannelEnabled } from '../../admin/admin-channels.ts';
import { recordAudit } from '../../admin/audit-log.ts';
import { apiNotFound, invalidRequest } from '../../gateway-errors.ts';
import { actorOf } from './admin-routes.ts';
import { listChannelStatuses } from '../../db/repositories/channels.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const adminOpsAnswers = () => import('./answers/admin-ops-answers.ts');

interface AdminOpsDeps {
  state: GatewayState;
  agents: UpstreamAgents;
  breakers: CircuitBreakers;
}

const MAX_OVERVIEW_RANGE_MS = 400 * 86_400_000;

export function adminOpsRoutes(api: ApiRouter, deps: AdminOpsDeps, accounts: AccountsDeps): void {
  const admin = { tag: 'Administration', access: 'admin' as const, allowKeys: true };
  const routedChannel = (id: number) => {
    const channel = deps.state.current.routing.anyChannel(id);
    if (!channel) throw apiNotFound('Channel');
    return channel;
  };

  api.route({
    ...admin, method: 'GET', url: '/api/admin/overview', answer: lazyAnswer(adminOpsAnswers, (m) => m.overviewAnswer),
    summary: "The platform over a period (default the last 24 hours): requests, errors, tokens, cost, revenue (card top-ups completed, codes redeemed), a series by bucket, the top users and models by cost, and each channel's status, circuit breaker (this instance) and failed calls of the last hour.",
    query: z.object({ from: timeParam.optional(), to: timeParam.optional(), bucket: z.enum(['minute', 'hour', 'day']).default('hour') }).strict(),
    handler: async ({ query }) => {
      const to = query.to ?? Date.now();
      const from = query.from ?? to - 86_400_000;
      if (from > to) throw invalidRequest("Invalid value for 'from': it must not be after 'to'.", 'from', 'invalid_value');
      if (to - from > MAX_OVERVIEW_RANGE_MS) throw invalidRequest("Invalid value for 'from': the period is at most 400 days.", 'from', 'invalid_value');
      // A minute series over more than two days would be thousands of points: refused rather than cut.
      if (query.bucket === 'minute' && to - from > 2 * 86_400_000) throw invalidRequest("Invalid value for 'bucket': minute buckets cover at most 2 days; use hour or day.", 'bucket', 'invalid_value');
      return readPlatformOverview(accounts.db, (id) => deps.breakers.state(id), query.bucket, from, to);
    },
  });

  api.route({
    ...admin, method: 'GET', url: '/api/admin/channels/:id/balance', answer: lazyAnswer(adminOpsAnswers, (m) => m.channelBalanceAnswer), params: idParams,
    summary: "The channel's remaining balance as its upstream reports it (OpenAI-compatible servers such as new-api and one-api: /v1/dashboard/billing/subscription and usage, or /dashboard/billing/credit_grants); available: false with the reason otherwise.",
    handler: async ({ params }) => {
      const channel = routedChannel(params.id);
      return { channel: channel.name, checked_at: new Date().toISOString(), ...await readChannelBalance(deps.agents, channel) };
    },
  });

  api.route({
    ...admin, method: 'GET', url: '/api/admin/channels/:id/upstream-models', answer: lazyAnswer(adminOpsAnswers, (m) => m.upstreamModelsAnswer), params: idParams,
    summary: "The model ids the channel's upstream lists (OpenAI and Anthropic /v1/models, Gemini models.list), with which the channel serves already; available: false with the upstream's status and error otherwise.",
    handler: async ({ params }) => {
      const channel = routedChannel(params.id);
      const list = await fetchChannelModels(deps.agents, channel);
      return list.available ? { channel: channel.name, available: true as const, models: list.models.map((id) => ({ id, served: channel.models.has(id) })) } : { channel: channel.name, ...list };
    },
  });

  api.route({
    ...admin, method: 'POST', url: '/api/admin/channels/test-all', answer: lazyAnswer(adminOpsAnswers, (m) => m.testAllAnswer), summary: 'Test every channel at once (or those in channel_ids), four at a time, each as the single Test does on its first model; reenable: true turns back on the channels the gateway disabled itself that pass.',
    body: z.object({ channel_ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(1_000).optional(), reenable: z.boolean().optional() }).strict(),
    handler: async ({ caller, body, reply }) => {
      // Thousands of channels take a while: when the administrator goes away (tab closed, request
      // cancelled), no further channel is tested and the tests under way are cut short.
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableEnded) gone.abort(new Error('the administrator went away'));
      });
      const rows = await listChannelStatuses(accounts.db);
      const wanted = body.channel_ids ? new Set(body.channel_ids) : null;
      if (wanted) {
        const unknown = [...wanted].find((id) => !rows.some((row) => row.id === id));
        if (unknown !== undefined) throw invalidRequest(`Invalid value for 'channel_ids': there is no channel ${unknown}.`, 'channel_ids', 'invalid_value');
      }
      const chosen = rows.filter((row) => wanted === null || wanted.has(row.id));
      const status = new Map(chosen.map((row) => [row.id, row.status]));
      const loaded = chosen.map((row) => deps.state.current.routing.anyChannel(row.id));
      const runs = await testChannels(deps.agents, loaded.filter((channel) => channel !== undefined), undefined, undefined, gone.signal);
      const results = [];
      for (const run of runs) {
        // As the single Test: only a channel the gateway disabled itself is turned back on, never one an administrator disabled.
        const reenable = run.ok && body.reenable === true && status.get(run.channel.id) === 'auto_disabled';
        if (reenable) {
          await setChannelEnabled(accounts.db, accounts.announce, run.channel.id, true);
          await recordAudit(accounts.db, actorOf(caller), 'channel.reenable', `channel:${run.channel.id}`, null, { enabled: true });
        }
        results.push({ channel_id: run.channel.id, channel: run.channel.name, model: run.model, ok: run.ok, status: run.status, latency_ms: run.latencyMs, error: run.error, reenabled: reenable });
      }
      // A channel whose stored credential cannot be read is not in the routing table: reported, not tested.
      const skipped = chosen.filter((_, index) => loaded[index] === undefined).map((row) => ({ channel_id: row.id, reason: 'not loaded: its upstream credential cannot be read' }));
      return { data: results, passed: results.filter((result) => result.ok).length, failed: results.filter((result) => !result.ok).length, skipped };
    },
  });
}
