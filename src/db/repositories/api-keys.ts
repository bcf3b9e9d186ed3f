// API keys: stored as a SHA-256 hash plus a display prefix. The hot path never queries this table: the key
// cache is filled by listAllApiKeys() and refreshed on admin changes.
import type { ApiKeyRow, ApiKeysTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import { parseJsonColumn, stringListColumn } from '../json-columns.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

type NewApiKeyInput = Pick<ApiKeysTable, 'user_id' | 'name' | 'key_hash' | 'key_prefix'>
  & Partial<Omit<ApiKeysTable, 'id' | 'user_id' | 'name' | 'key_hash' | 'key_prefix' | 'used_micros' | 'created_at' | 'updated_at' | 'last_used_at'>>;

/** Fields an update may set; spend (used_micros) is metering's, and the owner and name are the key. */
type ApiKeyFields = Partial<Omit<ApiKeysTable, 'id' | 'user_id' | 'name' | 'used_micros' | 'created_at' | 'updated_at' | 'last_used_at'>>;

export async function insertApiKey(db: Db, key: NewApiKeyInput, now = Date.now()): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values({
    group_name: 'default',
    models_json: null,
    quota_micros: null,
    expires_at: null,
    ip_allowlist_json: null,
    status: 'active',
    rpm_limit: null,
    tpm_limit: null,
    ...withoutUndefined(key),
    used_micros: 0,
    created_at: now,
    updated_at: now,
    last_used_at: null,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Insert when (user_id, name) is absent (then key_hash and key_prefix are required), else update what differs. */
export async function upsertApiKeyByUserAndName(db: Db, userId: number, name: string, fields: ApiKeyFields, now = Date.now()): Promise<UpsertResult<ApiKeyRow>> {
  return upsertRow<ApiKeyRow>(db, { table: 'api_keys', key: { user_id: userId, name }, fields, idColumn: 'id', now });
}

/** Updates an existing key only; undefined when the user has no key of that name. */
export async function updateApiKeyByUserAndName(db: Db, userId: number, name: string, fields: ApiKeyFields, now = Date.now()): Promise<ApiKeyRow | undefined> {
  const existing = await db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
  if (!existing) return undefined;
  // A deleted key is never enabled again, not even by the config file.
  const { status: _status, ...rest } = fields;
  return (await upsertApiKeyByUserAndName(db, userId, name, existing.status === 'deleted' ? rest : fields, now)).row;
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function findApiKeyById(db: Db, id: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every key, for preloading the in-memory key cache at start. */
export async function listAllApiKeys(db: Db): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().orderBy('id').execute();
}

export async function listApiKeysByUser(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** Returns whether the status changed. */
export async function setApiKeyStatus(db: Db, id: number, status: ApiKeyRow['status'], now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ status, updated_at: now })
    .where('id', '=', id).where('status', '!=', status).where('status', '!=', 'deleted').executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** A key's spend (0 for a key not stored), read once per key by accounting. */
export async function findApiKeySpend(db: Db, id: number): Promise<number> {
  const row = await db.selectFrom('api_keys').select('used_micros').where('id', '=', id).executeTakeFirst();
  return row?.used_micros ?? 0;
}

/** Whether a key that is not deleted names the group (a group in use cannot be deleted). */
export async function groupHasKeys(db: Db, groupName: string): Promise<boolean> {
  return (await db.selectFrom('api_keys').select('id').where('group_name', '=', groupName).where('status', '!=', 'deleted').executeTakeFirst()) !== undefined;
}

/** Changes a key that is not deleted (a revoked key is final); false when there is no such live key. */
export async function updateLiveApiKey(db: Db, id: number, fields: ApiKeyFields, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ ...fields, updated_at: now }).where('id', '=', id).where('status', '!=', 'deleted').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks the key deleted; false when there is no such key. */
export async function revokeApiKeyById(db: Db, id: number, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ status: 'deleted', updated_at: now }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findApiKeyByUserAndName(db: Db, userId: number, name: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
}

/**
 * Every key with its owner's name and e-mail, for the admin's key page. The list columns go out as the
 * stored JSON text (`models_json`, `ip_allowlist_json`): that is the admin API's shape, which the
 * dashboard reads.
 */
export async function listApiKeysWithOwners(db: Db) {
  return db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.name', 'api_keys.key_prefix', 'api_keys.group_name', 'api_keys.status', 'api_keys.quota_micros', 'api_keys.used_micros', 'api_keys.expires_at', 'api_keys.created_at', 'api_keys.last_used_at', 'users.name as user',
      // What the admin key page edits besides (issue 31): the owner's e-mail, the model list, the allowlist and the limits.
      'users.email as user_email', 'api_keys.models_json', 'api_keys.ip_allowlist_json', 'api_keys.rpm_limit', 'api_keys.tpm_limit'])
    .orderBy('api_keys.id').execute();
}

/** A user's key by name with only its id and status (any status, deleted too). */
export async function findKeyStatusByUserAndName(db: Db, userId: number, name: string): Promise<Pick<ApiKeyRow, 'id' | 'status'> | undefined> {
  return db.selectFrom('api_keys').select(['id', 'status']).where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
}

export async function renameApiKey(db: Db, id: number, name: string): Promise<void> {
  await db.updateTable('api_keys').set({ name }).where('id', '=', id).execute();
}

/** A user's active keys expiring in (after, until]. */
export async function listKeysExpiringBetween(db: Db, userId: number, after: number, until: number): Promise<Pick<ApiKeyRow, 'id' | 'name' | 'expires_at'>[]> {
  return db.selectFrom('api_keys').select(['id', 'name', 'expires_at']).where('user_id', '=', userId).where('status', '=', 'active')
    .where('expires_at', 'is not', null).where('expires_at', '>', after).where('expires_at', '<=', until).execute();
}

/** A user's keys that are not deleted, by id. */
export async function listLiveKeysOfUser(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).where('status', '!=', 'deleted').orderBy('id').execute();
}

/** The user's key with this id unless deleted; undefined for another user's key too. */
export async function findLiveKeyOfUser(db: Db, userId: number, id: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).where('user_id', '=', userId).where('status', '!=', 'deleted').executeTakeFirst();
}

export async function countLiveKeysOfUser(db: Db, userId: number): Promise<number> {
  const count = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', '!=', 'deleted').executeTakeFirstOrThrow();
  return Number(count.n);
}

/** Changes the user's key unless deleted (a taken name throws the engine's unique violation). */
export async function updateLiveKeyOfUser(db: Db, userId: number, id: number, fields: ApiKeyFields & { name?: string }, now = Date.now()): Promise<void> {
  await db.updateTable('api_keys').set({ ...fields, updated_at: now }).where('id', '=', id).where('user_id', '=', userId).where('status', '!=', 'deleted').execute();
}

export async function deleteKeyOfUser(db: Db, userId: number, id: number, now = Date.now()): Promise<void> {
  await db.updateTable('api_keys').set({ status: 'deleted', updated_at: now }).where('id', '=', id).where('user_id', '=', userId).execute();
}

type KeyLists = { models: string[] | null; mcpTools: string[] | null; ipAllowlist: string[] | null };

/**
 * The lists as the key index (every request's check) reads them: one unreadable row must not fail the
 * reload of every key, and must not open the key either, so a list that does not parse is an empty list
 * (nothing allowed) rather than null (no restriction), and the problem is reported to the caller.
 */
export function apiKeyListsForChecks(row: Pick<ApiKeyRow, 'id' | 'models_json' | 'mcp_tools_json' | 'ip_allowlist_json'>, unreadable: (problem: string) => void): KeyLists {
  const list = (json: string | null, column: string) => {
    if (json === null) return null;
    try {
      return parseJsonColumn(stringListColumn, json, `api_keys ${row.id} ${column}`);
    } catch (error) {
      unreadable((error as Error).message);
      return [];
    }
  };
  return { models: list(row.models_json, 'models_json'), mcpTools: list(row.mcp_tools_json, 'mcp_tools_json'), ipAllowlist: list(row.ip_allowlist_json, 'ip_allowlist_json') };
}

/** A key's list settings (models, MCP tools, IP allowlist), parsed; null: no restriction. */
export function apiKeyListsOf(row: Pick<ApiKeyRow, 'id' | 'models_json' | 'mcp_tools_json' | 'ip_allowlist_json'>): KeyLists {
  const list = (json: string | null, column: string) => (json === null ? null : parseJsonColumn(stringListColumn, json, `api_keys ${row.id} ${column}`));
  return { models: list(row.models_json, 'models_json'), mcpTools: list(row.mcp_tools_json, 'mcp_tools_json'), ipAllowlist: list(row.ip_allowlist_json, 'ip_allowlist_json') };
}
