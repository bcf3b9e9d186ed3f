// Administering API keys: create (the secret is returned once), change limits, revoke. Every change is
// announced on the invalidation bus so all instances stop or start honouring it within moments.
import type { ApiKeysTable } from '../db/schema.ts';
import { findApiKeyById, findApiKeyByUserAndName, insertApiKey, listApiKeysWithOwners, revokeApiKeyById, updateLiveApiKey } from '../db/repositories/api-keys.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { findUserByName } from '../db/repositories/users.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../accounts/api-key-format.ts';
import { apiNotFound, type GatewayError, invalidRequest, gatewayError } from '../gateway-errors.ts';
import type { AnnounceChange } from '../cluster/invalidation-bus.ts';
import { boundedUsdToMicros } from '../metering/money-bounds.ts';

interface KeyChanges {
  enabled?: boolean;
  group?: string;
  models?: string[] | null;
  mcp_tools?: string[] | null;
  quota_usd?: number | null;
  expires_at?: string | null;
  ip_allowlist?: string[] | null;
  rpm_limit?: number | null;
  tpm_limit?: number | null;
}

interface NewKeyRequest extends KeyChanges {
  user: string;
  name: string;
}

/** The admin API's 404, the same as the /api surface's (gateway-errors.ts). */
export const notFound = apiNotFound;

const quotaMicros = (usd: number) => boundedUsdToMicros(usd, 'quota_usd', { allowNegative: false, allowZero: true });

export async function createKey(db: Db, announce: AnnounceChange, request: NewKeyRequest): Promise<{ id: number; key: string }> {
  const user = await findUserByName(db, request.user);
  if (!user) throw notFound(`User '${request.user}'`);
  const existing = await findApiKeyByUserAndName(db, user.id, request.name);
  if (existing) {
    throw gatewayError('GW_ERR_KEY_NAME_TAKEN', {
      message: `User '${request.user}' already has a key named '${request.name}'${existing.status === 'deleted' ? ' (deleted keys keep their names)' : ''}: choose another name.`,
      param: 'name',
      code: 'key_name_taken',
    });
  }
  const secret = generateApiKey();
  const inserted = await insertApiKey(db, {
    user_id: user.id,
    name: request.name,
    key_hash: hashApiKey(secret),
    key_prefix: displayPrefix(secret),
    group_name: request.group ?? 'default',
    models_json: request.models ? JSON.stringify(request.models) : null,
    mcp_tools_json: request.mcp_tools ? JSON.stringify(request.mcp_tools) : null,
    quota_micros: request.quota_usd === undefined || request.quota_usd === null ? null : quotaMicros(request.quota_usd),
    expires_at: request.expires_at ? Date.parse(request.expires_at) : null,
    ip_allowlist_json: request.ip_allowlist ? JSON.stringify(request.ip_allowlist) : null,
    status: request.enabled === false ? 'disabled' : 'active',
    rpm_limit: request.rpm_limit ?? null,
    tpm_limit: request.tpm_limit ?? null,
  });
  await announce({ reason: 'key created' });
  return { id: inserted.id, key: secret };
}

export async function updateKey(db: Db, announce: AnnounceChange, id: number, changes: KeyChanges): Promise<void> {
  const set: Partial<ApiKeysTable> = {};
  if (changes.enabled !== undefined) set.status = changes.enabled ? 'active' : 'disabled';
  if (changes.group !== undefined) set.group_name = changes.group;
  if (changes.models !== undefined) set.models_json = changes.models === null ? null : JSON.stringify(changes.models);
  if (changes.mcp_tools !== undefined) set.mcp_tools_json = changes.mcp_tools === null ? null : JSON.stringify(changes.mcp_tools);
  if (changes.quota_usd !== undefined) set.quota_micros = changes.quota_usd === null ? null : quotaMicros(changes.quota_usd);
  if (changes.expires_at !== undefined) {
    const parsed = changes.expires_at === null ? null : Date.parse(changes.expires_at);
    if (parsed !== null && Number.isNaN(parsed)) throw invalidRequest("Invalid value for 'expires_at': expected an ISO 8601 date-time.", 'expires_at');
    set.expires_at = parsed;
  }
  if (changes.ip_allowlist !== undefined) set.ip_allowlist_json = changes.ip_allowlist === null ? null : JSON.stringify(changes.ip_allowlist);
  if (changes.rpm_limit !== undefined) set.rpm_limit = changes.rpm_limit;
  if (changes.tpm_limit !== undefined) set.tpm_limit = changes.tpm_limit;
  // A deleted (revoked) key is final: no change may bring it back.
  if (!(await updateLiveApiKey(db, id, set))) throw await missingOrDeleted(db, id);
  await announce({ reason: 'key changed', keyIds: [id] });
}

/** DELETE: the key stops working at once and for good; its row stays for the usage history. */
export async function revokeKey(db: Db, announce: AnnounceChange, id: number): Promise<void> {
  if (!(await revokeApiKeyById(db, id))) throw notFound(`API key ${id}`);
  await announce({ reason: 'key revoked', keyIds: [id] });
}

async function missingOrDeleted(db: Db, id: number): Promise<GatewayError> {
  const row = await findApiKeyById(db, id);
  if (row?.status === 'deleted') return gatewayError('GW_ERR_KEY_DELETED', { message: `API key ${id} was deleted; a deleted key can never be changed or enabled again. Create a new key.`, code: 'not_found' });
  return notFound(`API key ${id}`);
}

export async function listKeys(db: Db) {
  return listApiKeysWithOwners(db);
}
