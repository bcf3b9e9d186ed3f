// What the hot path reads: the key index and the routing table, rebuilt together from the database.
// Readers always see one consistent snapshot; a reload swaps it in one assignment.
import type { SecretBox } from './accounts/secret-box.ts';
import { buildKeyIndex, type KeyIndex } from './accounts/key-index.ts';
import { listMemberCaps } from './db/repositories/organisations.ts';
import { buildRoutingTable, type RoutingTable } from './routing/routing-table.ts';
import { listChannels } from './db/repositories/channels.ts';
import { listModels, type Model } from './db/repositories/models.ts';
import { listAllApiKeys } from './db/repositories/api-keys.ts';
import { listGroups } from './db/repositories/groups.ts';
import { listMcpServers } from './db/repositories/mcp-servers.ts';
import { listAllUsers } from './db/repositories/users.ts';
import type { Db } from './db/repositories/repository-helpers.ts';
import type { ModelPricing } from './metering/pricing.ts';
import { buildMcpUpstreams, type McpUpstream } from './mcp/mcp-upstream.ts';

export interface GatewaySnapshot {
  keys: KeyIndex;
  routing: RoutingTable;
  /** Each model's JSON columns parsed once per reload (its repository), not per request. */
  models: ReadonlyMap<string, Model>;
  /** The models' prices by id. */
  pricing: ReadonlyMap<string, ModelPricing>;
  groupRatios: ReadonlyMap<string, number>;
  /** The upstream MCP servers by name (src/mcp), credentials decrypted. */
  mcpServers: ReadonlyMap<string, McpUpstream>;
}

export interface GatewayState {
  readonly current: GatewaySnapshot;
  /** Re-reads keys, users, groups, channels and models; call after any admin change. */
  reload(): Promise<void>;
}

/** `onLoaded` sees every snapshot built (at start and on each reload), e.g. to act on unreadable channels. */
export async function createGatewayState(db: Db, secrets: SecretBox, onLoaded?: (snapshot: GatewaySnapshot) => void): Promise<GatewayState> {
  const load = async (): Promise<GatewaySnapshot> => {
    const [keys, users, groups, channels, models, mcpServers, memberCaps] = await Promise.all([
      listAllApiKeys(db),
      listAllUsers(db),
      listGroups(db),
      listChannels(db),
      listModels(db),
      listMcpServers(db),
      listMemberCaps(db),
    ]);
    const snapshot: GatewaySnapshot = {
      keys: buildKeyIndex(keys, users, groups, memberCaps),
      routing: buildRoutingTable(channels, models, secrets),
      models: new Map(models.map((model) => [model.id, model])),
      pricing: new Map(models.map((model) => [model.id, model.pricing])),
      groupRatios: new Map(groups.map((group) => [group.name, group.ratio_ppm])),
      mcpServers: buildMcpUpstreams(mcpServers, secrets),
    };
    onLoaded?.(snapshot);
    return snapshot;
  };
  let current = await load();
  // Reloads requested while one runs collapse into one more, so bursts of admin changes stay cheap.
  let running: Promise<void> | null = null;
  let again = false;
  const reload = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        current = await load();
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  return {
    get current() {
      return current;
    },
    reload,
  };
}
