// The in-memory index of API keys: one hash-map lookup per request, no database round trip.
// Built from the database at start and rebuilt whenever keys, users or groups change.
import { compileIpAllowlist, type IpAllowlist } from './ip-allowlist.ts';
import { hashApiKey, looksLikeGatewayKey } from './api-key-format.ts';
import type { ApiKeyRow, GroupRow, UserRow } from '../db/schema.ts';
import type { MemberCapRef } from '../metering/member-caps.ts';
import { apiKeyListsForChecks } from '../db/repositories/api-keys.ts';

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
  /** An organisation's key (userId is the organisation's wallet account): the member who holds it. */
  memberUserId: number | null;
  /** That member's monthly cap in the organisation, or null for none. */
  memberCap: MemberCapRef | null;
}

/** A member's cap as the key index needs it (src/db/repositories/organisations.ts listMemberCaps). */
interface MemberCapRow { organisation_id: number; user_id: number; wallet_user_id: number; monthly_cap_micros: number }

export interface KeyIndex {
  /** The key for a presented secret, or undefined when it is not one of ours. */
  lookup(presented: string): CachedKey | undefined;
  /** The key with this id (the dashboard's playground key, whose secret nobody holds). */
  byId(id: number): CachedKey | undefined;
  readonly size: number;
  /** Keys with a list column that does not parse (each restricted to nothing), and why: for the log. */
  readonly unreadableKeys: ReadonlyMap<number, string>;
}

export function buildKeyIndex(keys: ApiKeyRow[], users: UserRow[], groups: GroupRow[], memberCaps: readonly MemberCapRow[] = []): KeyIndex {
  const usersById = new Map(users.map((user) => [user.id, user]));
  const capsByMember = new Map(memberCaps.map((cap) => [`${cap.wallet_user_id}.${cap.user_id}`, cap]));
  const groupsByName = new Map(groups.map((group) => [group.name, group]));
  const byHash = new Map<string, CachedKey>();
  const byId = new Map<number, CachedKey>();
  const unreadableKeys = new Map<number, string>();
  for (const row of keys) {
    const user = usersById.get(row.user_id);
    if (!user) continue;
    const { models, mcpTools, ipAllowlist: allowlist } = apiKeyListsForChecks(row, (problem) => unreadableKeys.set(row.id, problem));
    const memberUserId = row.member_user_id === null ? null : Number(row.member_user_id);
    // An organisation key stops with its member's account as well as with the organisation's.
    const member = memberUserId === null ? undefined : usersById.get(memberUserId);
    const cap = memberUserId === null ? undefined : capsByMember.get(`${row.user_id}.${memberUserId}`);
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
      userEnabled: user.status === 'active' && (memberUserId === null || member?.status === 'active'),
      rpmLimit: row.rpm_limit ?? groupsByName.get(row.group_name)?.rpm_limit ?? null,
      tpmLimit: row.tpm_limit ?? groupsByName.get(row.group_name)?.tpm_limit ?? null,
      userRpmLimit: user.rpm_limit,
      userTpmLimit: user.tpm_limit,
      memberUserId,
      memberCap: cap ? { organisationId: cap.organisation_id, memberUserId: cap.user_id, walletUserId: cap.wallet_user_id, capMicros: cap.monthly_cap_micros } : null,
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
    unreadableKeys,
  };
}
