// A user's own API keys: list, create (the secret is answered once), edit, disable/enable, rotate, delete.
// Every change is announced on the invalidation bus, so every instance applies it on its next request.
// A deleted key keeps its row (logs name it) with status 'deleted', which nothing turns back.
import type { AccountsDeps } from './accounts-deps.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format.ts';
import type { ApiKeyRow } from '../db/schema.ts';
import { apiNotFound, conflict, invalidRequest } from '../gateway-errors.ts';
import { usdToMicros } from '../metering/pricing.ts';
import { getSetting } from '../db/repositories/settings.ts';
import { stringListColumn } from '../db/json-columns.ts';
import { findGroupByName } from '../db/repositories/groups.ts';
import { apiKeyListsOf, countLiveKeysOfUser, deleteKeyOfUser, findLiveKeyOfUser, insertApiKey, listLiveKeysOfUser, updateLiveKeyOfUser } from '../db/repositories/api-keys.ts';

const MAX_KEYS_PER_USER = 200;

interface KeySettings {
  name?: string | undefined;
  group?: string | undefined;
  models?: string[] | null | undefined;
  mcp_tools?: string[] | null | undefined;
  quota_usd?: number | null | undefined;
  expires_at?: string | null | undefined;
  ip_allowlist?: string[] | null | undefined;
  enabled?: boolean | undefined;
}

export function keyView(row: ApiKeyRow) {
  const lists = apiKeyListsOf(row);
  return {
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    group: row.group_name,
    models: lists.models,
    mcp_tools: lists.mcpTools,
    quota_usd: row.quota_micros === null ? null : row.quota_micros / 1_000_000,
    spent_usd: row.used_micros / 1_000_000,
    expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    ip_allowlist: lists.ipAllowlist,
    enabled: row.status === 'active',
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

export async function listUserKeys(deps: Pick<AccountsDeps, 'db'>, userId: number) {
  const rows = await listLiveKeysOfUser(deps.db, userId);
  return rows.map(keyView);
}

/** The user's live key, or 404 (also for another user's key: ids are not a way to learn what exists). */
export async function ownKey(deps: Pick<AccountsDeps, 'db'>, userId: number, id: number): Promise<ApiKeyRow> {
  const row = await findLiveKeyOfUser(deps.db, userId, id);
  if (!row) throw apiNotFound('API key');
  return row;
}

/** Groups users may pick for their own keys (an admin setting; default: only 'default'). Others are the admins' to assign. */
export const SELF_SERVICE_GROUPS_SETTING = 'self_service_groups';

export async function selfServiceGroups(deps: Pick<AccountsDeps, 'db'>): Promise<string[]> {
  return (await getSetting(deps.db, SELF_SERVICE_GROUPS_SETTING, stringListColumn)) ?? ['default'];
}

async function checkGroup(deps: Pick<AccountsDeps, 'db'>, group: string): Promise<void> {
  const row = await findGroupByName(deps.db, group);
  // An unknown group and one reserved for administrators get the same answer.
  if (!row || !(await selfServiceGroups(deps)).includes(group)) throw invalidRequest(`The group '${group}' is not one you can use. GET /api/groups lists them.`, 'group', 'group_not_available');
}

/** The columns a key's settings write (never its id, owner or secret). */
type KeyColumns = Partial<Pick<ApiKeyRow, 'name' | 'group_name' | 'models_json' | 'mcp_tools_json' | 'quota_micros' | 'expires_at' | 'ip_allowlist_json' | 'status'>>;

/** The columns of the settings every key has (a personal key's and an organisation's), as an update sets them. */
export function keyColumns(settings: Omit<KeySettings, 'group' | 'mcp_tools'>): KeyColumns {
  const set: KeyColumns = {};
  if (settings.name !== undefined) set.name = settings.name;
  if (settings.models !== undefined) set.models_json = settings.models === null ? null : JSON.stringify(settings.models);
  if (settings.quota_usd !== undefined) set.quota_micros = settings.quota_usd === null ? null : usdToMicros(settings.quota_usd);
  if (settings.expires_at !== undefined) set.expires_at = settings.expires_at === null ? null : Date.parse(settings.expires_at);
  if (settings.ip_allowlist !== undefined) set.ip_allowlist_json = settings.ip_allowlist === null ? null : JSON.stringify(settings.ip_allowlist);
  if (settings.enabled !== undefined) set.status = settings.enabled ? 'active' : 'disabled';
  return set;
}

/** A personal key's columns: those of every key, its group and its MCP tool allowlist. */
function toColumns(settings: KeySettings): KeyColumns {
  const set = keyColumns(settings);
  if (settings.group !== undefined) set.group_name = settings.group;
  if (settings.mcp_tools !== undefined) set.mcp_tools_json = settings.mcp_tools === null ? null : JSON.stringify(settings.mcp_tools);
  return set;
}

/** A key name taken already (the engines word the unique violation differently). */
export const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test((error as Error).message);

export async function createUserKey(deps: AccountsDeps, userId: number, settings: KeySettings & { name: string }): Promise<{ key: string; data: ReturnType<typeof keyView> }> {
  await checkGroup(deps, settings.group ?? 'default');
  if (await countLiveKeysOfUser(deps.db, userId) >= MAX_KEYS_PER_USER) throw invalidRequest(`You have ${MAX_KEYS_PER_USER} keys, the most allowed. Delete one first.`, null, 'too_many_keys');
  const secret = generateApiKey();
  const now = Date.now();
  let row: ApiKeyRow;
  try {
    row = await insertApiKey(deps.db, { user_id: userId, name: settings.name, key_hash: hashApiKey(secret), key_prefix: displayPrefix(secret), ...toColumns(settings) }, now);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`You already have a key named '${settings.name}'.`, 'name', 'key_name_taken');
    throw error;
  }
  await deps.announce({ reason: 'key created', keyIds: [row.id] });
  return { key: secret, data: keyView(row) };
}

export async function updateUserKey(deps: AccountsDeps, userId: number, id: number, settings: KeySettings) {
  const before = await ownKey(deps, userId, id);
  if (settings.group !== undefined) await checkGroup(deps, settings.group);
  try {
    await updateLiveKeyOfUser(deps.db, userId, id, toColumns(settings));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`You already have a key named '${settings.name}'.`, 'name', 'key_name_taken');
    throw error;
  }
  await deps.announce({ reason: 'key changed', keyIds: [id] });
  return { before: keyView(before), after: keyView(await ownKey(deps, userId, id)) };
}

/** A new secret with the same settings; the old secret stops working at once (on every instance). */
export async function rotateUserKey(deps: AccountsDeps, userId: number, id: number): Promise<{ key: string; data: ReturnType<typeof keyView> }> {
  await ownKey(deps, userId, id);
  const secret = generateApiKey();
  await updateLiveKeyOfUser(deps.db, userId, id, { key_hash: hashApiKey(secret), key_prefix: displayPrefix(secret) });
  await deps.announce({ reason: 'key rotated', keyIds: [id] });
  return { key: secret, data: keyView(await ownKey(deps, userId, id)) };
}

export async function deleteUserKey(deps: AccountsDeps, userId: number, id: number): Promise<void> {
  await ownKey(deps, userId, id);
  await deleteKeyOfUser(deps.db, userId, id);
  await deps.announce({ reason: 'key deleted', keyIds: [id] });
}
