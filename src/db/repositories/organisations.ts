// Organisations and their members. An organisation's wallet is a users row of kind 'organisation' (no
// e-mail, no password: nobody signs in to it), so its money moves through the ledger like anyone's.
import { randomBytes } from 'node:crypto';
import { sql } from '../kysely-parts.ts';
import { engineOf } from '../engine.ts';
import type { OrganisationMemberRow, OrganisationRole, OrganisationRow } from '../schema.ts';
import { inTransaction, type Db } from './repository-helpers.ts';

export interface MembershipRow extends OrganisationRow {
  role: OrganisationRole;
  monthly_cap_micros: number | null;
}

interface MemberWithUser extends OrganisationMemberRow {
  name: string;
  email: string | null;
}

export async function createOrganisationWithOwner(db: Db, name: string, ownerId: number, now = Date.now()): Promise<OrganisationRow> {
  return inTransaction(db, async (trx) => {
    // users.name is unique: the wallet account's name carries a random tail so no person's name is taken.
    const wallet = await trx.insertInto('users').values({
      name: `Organisation ${name} (${randomBytes(4).toString('hex')})`, email: null, password_hash: null, role: 'user', status: 'active',
      kind: 'organisation', email_verified_at: null, totp_secret_encrypted: null, balance_micros: 0, rpm_limit: null, tpm_limit: null,
      settings_json: '{}', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const organisation = await trx.insertInto('organisations').values({ name, wallet_user_id: Number(wallet.id), group_name: 'default', created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
    await trx.insertInto('organisation_members').values({ organisation_id: organisation.id, user_id: ownerId, role: 'owner', monthly_cap_micros: null, created_at: now }).execute();
    return organisation;
  });
}

/** The organisations a user belongs to, with their role, oldest first. */
export async function listMembershipsOfUser(db: Db, userId: number): Promise<MembershipRow[]> {
  return db.selectFrom('organisation_members').innerJoin('organisations', 'organisations.id', 'organisation_members.organisation_id')
    .selectAll('organisations').select(['organisation_members.role', 'organisation_members.monthly_cap_micros'])
    .where('organisation_members.user_id', '=', userId).orderBy('organisations.id').execute();
}

/** The organisation with the user's role in it, or undefined when the user is not a member (or it does not exist). */
export async function findMembership(db: Db, organisationId: number, userId: number): Promise<MembershipRow | undefined> {
  return db.selectFrom('organisation_members').innerJoin('organisations', 'organisations.id', 'organisation_members.organisation_id')
    .selectAll('organisations').select(['organisation_members.role', 'organisation_members.monthly_cap_micros'])
    .where('organisation_members.organisation_id', '=', organisationId).where('organisation_members.user_id', '=', userId).executeTakeFirst();
}

export async function findOrganisation(db: Db, organisationId: number): Promise<OrganisationRow | undefined> {
  return db.selectFrom('organisations').selectAll().where('id', '=', organisationId).executeTakeFirst();
}

export async function listOrganisations(db: Db): Promise<(OrganisationRow & { members: number; balance_micros: number })[]> {
  const rows = await db.selectFrom('organisations').innerJoin('users', 'users.id', 'organisations.wallet_user_id')
    .selectAll('organisations').select('users.balance_micros')
    .select((eb) => eb.selectFrom('organisation_members').select(eb.fn.countAll<number>().as('n')).whereRef('organisation_members.organisation_id', '=', 'organisations.id').as('members'))
    .orderBy('organisations.id').execute();
  return rows.map((row) => ({ ...row, members: Number(row.members ?? 0) }));
}

export async function renameOrganisation(db: Db, organisationId: number, name: string, now = Date.now()): Promise<void> {
  await db.updateTable('organisations').set({ name, updated_at: now }).where('id', '=', organisationId).execute();
}

/** Sets the organisation's channel group and moves its keys to it; answers the keys moved. */
export async function setOrganisationGroup(db: Db, organisation: OrganisationRow, group: string, now = Date.now()): Promise<number[]> {
  return inTransaction(db, async (trx) => {
    await trx.updateTable('organisations').set({ group_name: group, updated_at: now }).where('id', '=', organisation.id).execute();
    const keys = await trx.updateTable('api_keys').set({ group_name: group, updated_at: now })
      .where('user_id', '=', organisation.wallet_user_id).where('status', '!=', 'deleted').returning('id').execute();
    return keys.map((key) => Number(key.id));
  });
}

export async function listMembers(db: Db, organisationId: number): Promise<MemberWithUser[]> {
  return db.selectFrom('organisation_members').innerJoin('users', 'users.id', 'organisation_members.user_id')
    .selectAll('organisation_members').select(['users.name', 'users.email'])
    .where('organisation_members.organisation_id', '=', organisationId).orderBy('organisation_members.created_at').orderBy('organisation_members.user_id').execute();
}

/**
 * Changes a member's role unless that would leave the organisation without an owner. The owners are
 * counted inside the transaction that changes the role (PostgreSQL: the members' rows locked), so two
 * owners demoting each other at once cannot both succeed.
 */
export async function changeMemberRole(db: Db, organisationId: number, userId: number, role: OrganisationRole): Promise<'changed' | 'last_owner' | 'missing'> {
  return inTransaction(db, async (trx) => {
    const members = await lockMembers(trx, organisationId);
    const member = members.find((row) => Number(row.user_id) === userId);
    if (!member) return 'missing';
    if (member.role === 'owner' && role !== 'owner' && members.filter((row) => row.role === 'owner').length === 1) return 'last_owner';
    await trx.updateTable('organisation_members').set({ role }).where('organisation_id', '=', organisationId).where('user_id', '=', userId).execute();
    return 'changed';
  });
}

/** Ownership moves from one member to another; the former owner stays on as an admin. */
export async function transferOwnership(db: Db, organisationId: number, fromUserId: number, toUserId: number): Promise<'changed' | 'missing'> {
  return inTransaction(db, async (trx) => {
    const members = await lockMembers(trx, organisationId);
    const from = members.find((row) => Number(row.user_id) === fromUserId);
    const to = members.find((row) => Number(row.user_id) === toUserId);
    if (!from || from.role !== 'owner' || !to) return 'missing';
    await trx.updateTable('organisation_members').set({ role: 'owner' }).where('organisation_id', '=', organisationId).where('user_id', '=', toUserId).execute();
    if (fromUserId !== toUserId) await trx.updateTable('organisation_members').set({ role: 'admin' }).where('organisation_id', '=', organisationId).where('user_id', '=', fromUserId).execute();
    return 'changed';
  });
}

export async function setMemberCap(db: Db, organisationId: number, userId: number, capMicros: number | null): Promise<boolean> {
  const result = await db.updateTable('organisation_members').set({ monthly_cap_micros: capMicros })
    .where('organisation_id', '=', organisationId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Removes a member (unless they are the last owner) and deletes their organisation keys in the same
 * transaction; answers the deleted keys' ids, which the caller announces so every instance drops them.
 */
export async function removeMember(db: Db, organisation: OrganisationRow, userId: number, now = Date.now()): Promise<{ outcome: 'removed' | 'last_owner' | 'missing'; keyIds: number[] }> {
  return inTransaction(db, async (trx) => {
    const members = await lockMembers(trx, organisation.id);
    const member = members.find((row) => Number(row.user_id) === userId);
    if (!member) return { outcome: 'missing', keyIds: [] };
    if (member.role === 'owner' && members.filter((row) => row.role === 'owner').length === 1) return { outcome: 'last_owner', keyIds: [] };
    await trx.deleteFrom('organisation_members').where('organisation_id', '=', organisation.id).where('user_id', '=', userId).execute();
    const keys = await trx.updateTable('api_keys').set({ status: 'deleted', updated_at: now })
      .where('user_id', '=', organisation.wallet_user_id).where('member_user_id', '=', userId).where('status', '!=', 'deleted')
      .returning('id').execute();
    return { outcome: 'removed', keyIds: keys.map((key) => Number(key.id)) };
  });
}

/** Every member cap, with the organisation's wallet account: what the key index needs to enforce caps in memory. */
export async function listMemberCaps(db: Db): Promise<{ organisation_id: number; user_id: number; wallet_user_id: number; monthly_cap_micros: number }[]> {
  const rows = await db.selectFrom('organisation_members').innerJoin('organisations', 'organisations.id', 'organisation_members.organisation_id')
    .select(['organisation_members.organisation_id', 'organisation_members.user_id', 'organisations.wallet_user_id', 'organisation_members.monthly_cap_micros'])
    .where('organisation_members.monthly_cap_micros', 'is not', null).execute();
  return rows.map((row) => ({ organisation_id: Number(row.organisation_id), user_id: Number(row.user_id), wallet_user_id: Number(row.wallet_user_id), monthly_cap_micros: Number(row.monthly_cap_micros) }));
}

/** What a member's organisation keys have cost since `since` (the month's start): a member cap's starting point. */
export async function sumMemberSpendSince(db: Db, walletUserId: number, memberUserId: number, since: number): Promise<number> {
  const row = await db.selectFrom('usage_logs')
    .select(sql<number>`cast(coalesce(sum(cost_micros), 0) as bigint)`.as('total'))
    .where('user_id', '=', walletUserId).where('created_at', '>=', since)
    .where('key_id', 'in', (eb) => eb.selectFrom('api_keys').select('id').where('user_id', '=', walletUserId).where('member_user_id', '=', memberUserId))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

// PostgreSQL: FOR UPDATE serialises concurrent role changes of one organisation; SQLite has one writer anyway.
async function lockMembers(trx: Db, organisationId: number): Promise<OrganisationMemberRow[]> {
  const query = trx.selectFrom('organisation_members').selectAll().where('organisation_id', '=', organisationId).orderBy('user_id');
  return engineOf(trx) === 'postgres' ? query.forUpdate().execute() : query.execute();
}
