// Re-tests automatically disabled channels on a schedule and re-enables the ones that answer again.
// Channels an administrator disabled stay disabled.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import type { Logger } from 'pino';
import { listAutoDisabledChannels } from '../db/repositories/channels.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { GatewayState } from '../gateway-state.ts';
import type { AnnounceChange } from '../cluster/invalidation-bus.ts';
import { setChannelEnabled } from '../admin/admin-channels.ts';
import { testChannel } from './channel-tester.ts';

interface RetestDeps {
  db: Db;
  agents: UpstreamAgents;
  state: GatewayState;
  announce: AnnounceChange;
  logger: Logger;
}

async function retestDisabledChannels(deps: RetestDeps): Promise<number> {
  const rows = await listAutoDisabledChannels(deps.db);
  let reenabled = 0;
  for (const row of rows) {
    const channel = deps.state.current.routing.anyChannel(row.id);
    const model = channel ? [...channel.models][0] : undefined;
    if (!channel || !model) continue;
    const result = await testChannel(deps.agents, channel, model);
    if (result.ok) {
      await setChannelEnabled(deps.db, deps.announce, row.id, true);
      deps.logger.info({ channel: row.name, latencyMs: result.latencyMs }, 're-enabled a channel that answers again');
      reenabled++;
    }
  }
  return reenabled;
}

export function scheduleRetests(deps: RetestDeps, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    retestDisabledChannels(deps).catch((error: unknown) => deps.logger.error({ err: error }, 'channel re-test failed')).finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
