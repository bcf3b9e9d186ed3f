// The in-memory index of API keys: one hash-map lookup per request, no database round trip.
// Built from the database at start and rebuilt whenever keys, users or groups change.
import { compileIpAllowlist, type IpAllowlist } from './ip-allowlist.ts';
import { hashApiKey, looksLikeGatewayKey } from './api-key-format.ts';
import type { ApiKeyRow, GroupRow, UserRow } from '../db/schema.ts';

export interface CachedKey {
  id: number;
  name: string;
  userId: number;
  userName: string;
  userRole: 'user' | 'admin';
  groupName: string;
  groupRatioPpm: number;
  /** null: every model of the group. */
  models: ReadonlySet<string> | null;
  /** MCP tools the key may list and call (server__tool, server__*); null: every tool its group sees. */
  mcpTools: ReadonlySet<string> | null;
  quotaMicros: number | null;
  usedMicros: number;
  expiresAt: number | null;
  ipAllowlist: IpAllowlist | null;
  keyEnabled: boolean;
  userEnabled: boolean;
  /** The key's own limits, or its group's. */
  rpmLimit: number | null;
  tpmLimit: number | null;
  /** The owning user's limits, shared by all of their keys. */
  userRpmLimit: number | null;
  userTpmLimit: number | null;
}

export interface KeyIndex {
  /** The key for a presented secret, or undefined when it is not one of ours. */
  lookup(presented: string): CachedKey | undefined;
  /** The key with this id (the dashboard's playground key, whose secret nobody holds). */
  byId(id: number): CachedKey | undefined;
  readonly size: number;
}

export function buildKeyIndex(keys: ApiKeyRow[], users: UserRow[], groups: GroupRow[]): KeyIndex {
  const usersById = new Map(users.map((user) => [user.id, user]));
  const groupsByName = new Map(groups.map((group) => [group.name, group]));
  const byHash = new Map<string, CachedKey>();
  const byId = new Map<number, CachedKey>();
  for (const row of keys) {
    const user = usersById.get(row.user_id);
    if (!user) continue;
    const models = parseJsonArray(row.models_json);
    const mcpTools = parseJsonArray(row.mcp_tools_json);
    const allowlist = parseJsonArray(row.ip_allowlist_json);
    const cached: CachedKey = {
      id: row.id,
      name: row.name,
      userId: row.user_id,
      userName: user.name,
      userRole: user.role,
      groupName: row.group_name,
      groupRatioPpm: groupsByName.get(row.group_name)?.ratio_ppm ?? 1_000_000,
      models: models ? new Set(models) : null,
      mcpTools: mcpTools ? new Set(mcpTools) : null,
      quotaMicros: row.quota_micros,
      usedMicros: row.used_micros,
      expiresAt: row.expires_at,
      ipAllowlist: allowlist ? compileIpAllowlist(allowlist) : null,
      keyEnabled: row.status === 'active',
      userEnabled: user.status === 'active',
      rpmLimit: row.rpm_limit ?? groupsByName.get(row.group_name)?.rpm_limit ?? null,
      tpmLimit: row.tpm_limit ?? groupsByName.get(row.group_name)?.tpm_limit ?? null,
      userRpmLimit: user.rpm_limit,
      userTpmLimit: user.tpm_limit,
    };
    byHash.set(row.key_hash, cached);
    byId.set(row.id, cached);
  }
  return {
    lookup(presented) {
      // The shape check refuses upstream keys and random strings without hashing them.
      if (!looksLikeGatewayKey(presented)) return undefined;
      return byHash.get(hashApiKey(presented));
    },
    byId(id) {
      return byId.get(id);
    },
    get size() {
      return byHash.size;
    },
  };
}

function parseJsonArray(json: string | null): string[] | null {
  if (json === null) return null;
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : null;
}
