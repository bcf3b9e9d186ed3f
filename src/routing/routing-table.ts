// The in-memory routing table: for a (group, model), the channels that may serve it, by priority tier.
// Rebuilt from the database whenever channels, models or groups change.
import type { Channel } from '../db/repositories/channels.ts';
import type { Model } from '../db/repositories/models.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import { getProvider } from '../providers/registry.ts';
import { openSecretSettings, putSecrets } from '../providers/provider-secrets.ts';
import { getFormat } from '../formats/index.ts';
import type { RoutedChannel } from './routed-channel.ts';
import { channelChatFormat } from './channel-chat-format.ts';
import { channelForModel, rememberDeclaredPrefill } from './channel-for-model.ts';

export { channelForModel } from './channel-for-model.ts';

export const DEFAULT_GROUP = 'default';

export type { RoutedChannel } from './routed-channel.ts';

export interface ModelInfo {
  id: string;
  ownedBy: string;
  createdAt: number;
}

/** Channels for one (group, model), highest priority first; each tier is a weighted set. */
export type PriorityTiers = RoutedChannel[][];
const NO_TIERS: PriorityTiers = Object.freeze([]) as unknown as PriorityTiers;

export interface RoutingTable {
  tiers(group: string, model: string): PriorityTiers;
  /** Model ids a group can use, sorted. */
  modelsForGroup(group: string): ModelInfo[];
  /** True when some enabled channel of any group serves the model (403 versus 404). */
  isServedAnywhere(model: string): boolean;
  /** The reason when the group's only channels for the model are disabled (503 rather than 404), else null. */
  unavailableReason(group: string, model: string): string | null;
  channel(id: number): RoutedChannel | undefined;
  /** Every channel, enabled or not, as the relay would call it (for channel tests); undefined when its credential cannot be decrypted. */
  anyChannel(id: number): RoutedChannel | undefined;
  /** Enabled channels left out because their stored credential cannot be decrypted: id → reason. */
  readonly unreadableChannels: ReadonlyMap<number, string>;
}

const UNREADABLE_CREDENTIAL_REASON = "its stored upstream credential cannot be decrypted with this gateway's GATEWAY_SECRET: enter the channel's api_key again (config file or admin)";

export function buildRoutingTable(channelRows: Channel[], modelRows: Model[], secrets: SecretBox): RoutingTable {
  // One channel whose credential cannot be decrypted (written under another secret, corrupted) is left out
  // with a reason; it must not take the whole table, and so every reload, down with it.
  const unreadableChannels = new Map<number, string>();
  const channels: RoutedChannel[] = [];
  for (const row of channelRows.filter((candidate) => candidate.status === 'enabled')) {
    const built = tryRoutedChannel(row, secrets);
    if ('channel' in built) channels.push(built.channel);
    else unreadableChannels.set(row.id, built.reason);
  }
  const everyChannel = new Map(channelRows.map((row) => [row.id, row]));
  const converted = new Map<number, RoutedChannel>(channels.map((channel) => [channel.id, channel]));
  const disabled = channelRows.filter((row) => row.status !== 'enabled' || unreadableChannels.has(row.id)).map((row) => ({
    models: new Set(row.models),
    groups: new Set(row.groups),
    reason: unreadableChannels.get(row.id) ?? row.status_reason ?? 'disabled',
  }));
  const modelRowsById = new Map(modelRows.map((row) => [row.id, row]));
  const servedModels = new Set(channels.flatMap((channel) => [...channel.models]));
  // Per group, then per model: no key string built per call. Only models some channel serves are kept, so
  // a client naming a million made-up models cannot grow it (they all share NO_TIERS).
  const tiersCache = new Map<string, Map<string, PriorityTiers>>();
  const modelsCache = new Map<string, ModelInfo[]>();

  const channelsServing = (group: string, model: string): RoutedChannel[] => {
    const serving = channels.filter((channel) => channel.models.has(model));
    const inGroup = serving.filter((channel) => channel.groups.has(group));
    // `default` sees every model: when no channel names it for this model, any channel serving the model will do.
    return inGroup.length === 0 && group === DEFAULT_GROUP ? serving : inGroup;
  };

  return {
    tiers(group, model) {
      let byModel = tiersCache.get(group);
      let tiers = byModel?.get(model);
      if (tiers) return tiers;
      if (!servedModels.has(model)) return NO_TIERS;
      tiers = groupByPriority(channelsServing(group, model).map((channel) => channelForModel(channel, model)));
      if (!byModel) tiersCache.set(group, (byModel = new Map()));
      byModel.set(model, tiers);
      return tiers;
    },
    modelsForGroup(group) {
      let models = modelsCache.get(group);
      if (!models) {
        const ids = new Set<string>();
        for (const channel of channels) {
          for (const model of channel.models) {
            if (group === DEFAULT_GROUP || channel.groups.has(group)) ids.add(model);
          }
        }
        models = [...ids].sort().map((id) => {
          const row = modelRowsById.get(id);
          const owner = channels.find((channel) => channel.models.has(id))?.type ?? 'system';
          return { id, ownedBy: row?.owned_by ?? owner, createdAt: row?.created_at ?? 0 };
        });
        modelsCache.set(group, models);
      }
      return models;
    },
    isServedAnywhere: (model) => servedModels.has(model),
    unavailableReason(group, model) {
      const match = disabled.find((channel) => channel.models.has(model) && (group === DEFAULT_GROUP || channel.groups.has(group)));
      return match ? match.reason : null;
    },
    channel: (id) => channels.find((channel) => channel.id === id),
    anyChannel(id) {
      const row = everyChannel.get(id);
      if (!row) return undefined;
      let channel = converted.get(id);
      if (!channel) {
        const built = tryRoutedChannel(row, secrets);
        if (!('channel' in built)) return undefined;
        channel = built.channel;
        converted.set(id, channel);
      }
      return channel;
    },
    unreadableChannels,
  };
}

function tryRoutedChannel(row: Channel, secrets: SecretBox): { channel: RoutedChannel } | { reason: string } {
  let apiKeys: string[];
  try {
    apiKeys = JSON.parse(secrets.decrypt(row.api_keys_encrypted)) as string[];
  } catch {
    return { reason: UNREADABLE_CREDENTIAL_REASON };
  }
  try {
    return { channel: toRoutedChannel(row, apiKeys, secrets) };
  } catch (error) {
    return { reason: `its stored settings cannot be read: ${(error as Error).message}` };
  }
}

function toRoutedChannel(row: Channel, apiKeys: string[], secrets: SecretBox): RoutedChannel {
  const settings = row.settings;
  // The type's own settings (src/providers/*) passed its block's checks when the channel was saved; the
  // ones it marks secret are stored sealed, apart.
  const provider = getProvider(row.type, putSecrets(settings.provider ?? {}, openSecretSettings(secrets, settings.providerSecrets)));
  const chatFormat = getFormat(channelChatFormat(provider, settings.chatFormat));
  if (!row.base_url && !provider.defaultBaseUrl) throw new Error(`a ${row.type} channel needs its base_url`);
  const channel: RoutedChannel = {
    id: row.id,
    name: row.name,
    type: row.type,
    provider,
    chatFormat,
    ...splitBaseUrl(row.base_url || provider.defaultBaseUrl),
    apiKeys,
    models: new Set(row.models),
    modelMapping: row.model_mapping,
    groups: new Set(row.groups),
    priority: row.priority,
    weight: row.weight,
    timeouts: settings.timeouts ?? {},
    // The format says whether its upstreams continue a trailing assistant message natively (Anthropic);
    // OpenAI-compatible servers only when the channel declares it (vLLM's continue_final_message).
    supportsPrefill: settings.supportsPrefill ?? chatFormat.supportsPrefill,
    ...(settings.unsupportedEndpoints?.length ? { unsupportedOperations: new Set(settings.unsupportedEndpoints) } : {}),
    ...(typeof settings.http2 === 'boolean' ? { http2: settings.http2 } : {}),
    ...((settings.responsesWebSocket ?? provider.responsesWebSocket) === true ? { responsesWebSocket: true } : {}),
  };
  if (provider.formatFor) rememberDeclaredPrefill(channel, settings.supportsPrefill);
  return channel;
}

function groupByPriority(channels: RoutedChannel[]): PriorityTiers {
  const byPriority = new Map<number, RoutedChannel[]>();
  for (const channel of channels) {
    const tier = byPriority.get(channel.priority) ?? [];
    tier.push(channel);
    byPriority.set(channel.priority, tier);
  }
  return [...byPriority.entries()].sort(([a], [b]) => b - a).map(([, tier]) => tier);
}

function splitBaseUrl(baseUrl: string): { origin: string; basePath: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}
