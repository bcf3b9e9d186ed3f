// An organisation's keys: each is held by the member who made it and charges the shared wallet. A member
// sees and changes only the keys they hold; owners and admins see and change every member's. The group is
// the organisation's (a platform administrator sets it), never the member's choice.
import type { AccountsDeps } from './accounts-deps.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format.ts';
import { isUniqueViolation, keyColumns, keyView } from './user-keys.ts';
import { insertApiKey } from '../db/repositories/api-keys.ts';
import {
  countLiveKeys, deleteOrganisationKey, findOrganisationKey, listOrganisationKeys, updateOrganisationKey,
} from '../db/repositories/organisation-keys.ts';
import type { MembershipRow } from '../db/repositories/organisations.ts';
import type { ApiKeyRow, ApiKeysTable } from '../db/schema.ts';
import { apiNotFound, conflict, invalidRequest } from '../gateway-errors.ts';
import { isManager } from './organisations.ts';

const MAX_KEYS_PER_MEMBER = 100;

interface OrganisationKeySettings {
  name?: string | undefined;
  models?: string[] | null | undefined;
  quota_usd?: number | null | undefined;
  expires_at?: string | null | undefined;
  ip_allowlist?: string[] | null | undefined;
  enabled?: boolean | undefined;
}

function organisationKeyView(row: ApiKeyRow & { member_name?: string | null }) {
  const { mcp_tools: _tools, ...view } = keyView(row);
  return { ...view, member_user_id: row.member_user_id === null ? null : Number(row.member_user_id), member_name: row.member_name ?? null };
}

const toColumns = (settings: OrganisationKeySettings) => keyColumns(settings);

const nameTaken = (name: string | undefined) => conflict(`The organisation already has a key named '${name}'.`, 'name', 'key_name_taken');

/** The keys the caller may see: every member's for owners and admins, else their own. */
export async function listKeys(deps: Pick<AccountsDeps, 'db'>, membership: MembershipRow, userId: number) {
  const rows = await listOrganisationKeys(deps.db, membership.wallet_user_id, isManager(membership) ? null : userId);
  return rows.map(organisationKeyView);
}

async function visibleKey(deps: Pick<AccountsDeps, 'db'>, membership: MembershipRow, userId: number, keyId: number): Promise<ApiKeyRow> {
  const row = await findOrganisationKey(deps.db, membership.wallet_user_id, keyId, isManager(membership) ? null : userId);
  if (!row) throw apiNotFound('API key');
  return row;
}

export async function createKey(deps: AccountsDeps, membership: MembershipRow, userId: number, settings: OrganisationKeySettings & { name: string }) {
  if (await countLiveKeys(deps.db, membership.wallet_user_id, userId) >= MAX_KEYS_PER_MEMBER) {
    throw invalidRequest(`You hold ${MAX_KEYS_PER_MEMBER} keys in this organisation, the most allowed. Delete one first.`, null, 'too_many_keys');
  }
  const secret = generateApiKey();
  let row: ApiKeyRow;
  try {
    row = await insertApiKey(deps.db, {
      user_id: membership.wallet_user_id, member_user_id: userId, name: settings.name, key_hash: hashApiKey(secret), key_prefix: displayPrefix(secret),
      ...toColumns(settings), group_name: membership.group_name,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(settings.name);
    throw error;
  }
  await deps.announce({ reason: 'organisation key created', keyIds: [row.id] });
  return { key: secret, data: organisationKeyView(row) };
}

export async function updateKey(deps: AccountsDeps, membership: MembershipRow, userId: number, keyId: number, settings: OrganisationKeySettings) {
  await visibleKey(deps, membership, userId, keyId);
  try {
    await updateOrganisationKey(deps.db, membership.wallet_user_id, keyId, toColumns(settings));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(settings.name);
    throw error;
  }
  await deps.announce({ reason: 'organisation key changed', keyIds: [keyId] });
  return organisationKeyView(await visibleKey(deps, membership, userId, keyId));
}

export async function rotateKey(deps: AccountsDeps, membership: MembershipRow, userId: number, keyId: number) {
  await visibleKey(deps, membership, userId, keyId);
  const secret = generateApiKey();
  await updateOrganisationKey(deps.db, membership.wallet_user_id, keyId, { key_hash: hashApiKey(secret), key_prefix: displayPrefix(secret) });
  await deps.announce({ reason: 'organisation key rotated', keyIds: [keyId] });
  return { key: secret, data: organisationKeyView(await visibleKey(deps, membership, userId, keyId)) };
}

export async function deleteKey(deps: AccountsDeps, membership: MembershipRow, userId: number, keyId: number): Promise<void> {
  await visibleKey(deps, membership, userId, keyId);
  await deleteOrganisationKey(deps.db, membership.wallet_user_id, keyId);
  await deps.announce({ reason: 'organisation key deleted', keyIds: [keyId] });
}
