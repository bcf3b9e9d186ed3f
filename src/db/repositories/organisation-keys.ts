// An organisation's keys: api_keys rows of its wallet account, each held by one member (member_user_id).
import type { ApiKeyRow, ApiKeysTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

/** The organisation's live keys; `memberId` keeps those one member holds (null: every member's). */
export async function listOrganisationKeys(db: Db, walletUserId: number, memberId: number | null): Promise<(ApiKeyRow & { member_name: string | null })[]> {
  let query = db.selectFrom('api_keys').leftJoin('users', 'users.id', 'api_keys.member_user_id')
    .selectAll('api_keys').select('users.name as member_name')
    .where('api_keys.user_id', '=', walletUserId).where('api_keys.status', '!=', 'deleted');
  if (memberId !== null) query = query.where('api_keys.member_user_id', '=', memberId);
  return query.orderBy('api_keys.id').execute();
}

/** One live key of the organisation (held by `memberId` when given), or undefined. */
export async function findOrganisationKey(db: Db, walletUserId: number, keyId: number, memberId: number | null): Promise<ApiKeyRow | undefined> {
  let query = db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('user_id', '=', walletUserId).where('status', '!=', 'deleted');
  if (memberId !== null) query = query.where('member_user_id', '=', memberId);
  return query.executeTakeFirst();
}

/** Ids of the keys a member holds or held in the organisation, deleted ones included (their calls are theirs). */
export async function memberKeyIds(db: Db, walletUserId: number, memberId: number): Promise<number[]> {
  const rows = await db.selectFrom('api_keys').select('id').where('user_id', '=', walletUserId).where('member_user_id', '=', memberId).execute();
  return rows.map((row) => Number(row.id));
}

/** Every key of the organisation with its holder, deleted ones included: statistics per member. */
export async function keyHolders(db: Db, walletUserId: number): Promise<Map<number, number | null>> {
  const rows = await db.selectFrom('api_keys').select(['id', 'member_user_id']).where('user_id', '=', walletUserId).execute();
  return new Map(rows.map((row) => [Number(row.id), row.member_user_id === null ? null : Number(row.member_user_id)]));
}

export async function countLiveKeys(db: Db, walletUserId: number, memberId: number): Promise<number> {
  const row = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', walletUserId).where('member_user_id', '=', memberId).where('status', '!=', 'deleted').executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateOrganisationKey(db: Db, walletUserId: number, keyId: number, set: Partial<ApiKeysTable>, now = Date.now()): Promise<void> {
  await db.updateTable('api_keys').set({ ...set, updated_at: now } as never).where('id', '=', keyId).where('user_id', '=', walletUserId).where('status', '!=', 'deleted').execute();
}

export async function deleteOrganisationKey(db: Db, walletUserId: number, keyId: number, now = Date.now()): Promise<void> {
  await db.updateTable('api_keys').set({ status: 'deleted', updated_at: now }).where('id', '=', keyId).where('user_id', '=', walletUserId).execute();
}
