// Organisations (issue 34): who may do what, and the changes to members. Someone who is not a member gets
// 404 for the organisation and everything in it, exactly like an id that does not exist; a member whose
// role does not allow an action gets 403 `organisation_role`.
import type { AccountsDeps } from './accounts-deps.ts';
import type { OrganisationRole, UserRow } from '../db/schema.ts';
import {
  changeMemberRole, createOrganisationWithOwner, findMembership, listMembers, listMembershipsOfUser, removeMember,
  renameOrganisation, setMemberCap, transferOwnership, type MembershipRow,
} from '../db/repositories/organisations.ts';
import { apiNotFound, conflict, forbidden, invalidRequest } from '../gateway-errors.ts';

export const ORGANISATION_ROLES = ['owner', 'admin', 'billing', 'member'] as const;
/** Members, invitations, caps, every member's keys, logs and statistics. */
export const MANAGERS: readonly OrganisationRole[] = ['owner', 'admin'];
/** The shared wallet: its ledger, top-ups and codes. */
export const PAYERS: readonly OrganisationRole[] = ['owner', 'billing'];
/** Organisations one user may belong to, by creating or by joining. */
export const MAX_ORGANISATIONS_PER_USER = 50;

/** The caller's membership, or 404; 403 when their role is not among `roles`. */
export async function membershipFor(deps: Pick<AccountsDeps, 'db'>, organisationId: number, userId: number, roles?: readonly OrganisationRole[]): Promise<MembershipRow> {
  const membership = await findMembership(deps.db, organisationId, userId);
  if (!membership) throw apiNotFound('Organisation');
  if (roles && !roles.includes(membership.role)) {
    throw forbidden(`This needs the ${roles.join(' or ')} role in the organisation; yours is ${membership.role}.`, 'organisation_role');
  }
  return membership;
}

export const isManager = (membership: MembershipRow) => MANAGERS.includes(membership.role);

export function organisationView(membership: MembershipRow, balanceMicros: number | null) {
  return {
    id: membership.id,
    name: membership.name,
    role: membership.role,
    group: membership.group_name,
    monthly_cap_usd: membership.monthly_cap_micros === null ? null : Number(membership.monthly_cap_micros) / 1_000_000,
    // Only those who may see the wallet see its balance.
    balance_usd: balanceMicros === null ? null : balanceMicros / 1_000_000,
    created_at: new Date(Number(membership.created_at)).toISOString(),
  };
}

export async function createOrganisation(deps: AccountsDeps, user: UserRow, name: string) {
  const mine = await listMembershipsOfUser(deps.db, user.id);
  if (mine.length >= MAX_ORGANISATIONS_PER_USER) throw invalidRequest(`You belong to ${MAX_ORGANISATIONS_PER_USER} organisations, the most allowed.`, null, 'too_many_organisations');
  const organisation = await createOrganisationWithOwner(deps.db, name, user.id);
  // The wallet account is a user the key index must know before the first organisation key arrives.
  await deps.announce({ reason: 'organisation created' });
  return membershipFor(deps, organisation.id, user.id);
}

export async function listMyOrganisations(deps: Pick<AccountsDeps, 'db'>, userId: number) {
  return listMembershipsOfUser(deps.db, userId);
}

export async function rename(deps: AccountsDeps, membership: MembershipRow, name: string): Promise<void> {
  await renameOrganisation(deps.db, membership.id, name);
}

export async function membersView(deps: Pick<AccountsDeps, 'db'>, organisationId: number) {
  const members = await listMembers(deps.db, organisationId);
  return members.map((member) => ({
    user_id: Number(member.user_id),
    name: member.name,
    email: member.email,
    role: member.role,
    monthly_cap_usd: member.monthly_cap_micros === null ? null : Number(member.monthly_cap_micros) / 1_000_000,
    joined_at: new Date(Number(member.created_at)).toISOString(),
  }));
}

const lastOwner = () => conflict('An organisation keeps at least one owner: make another member an owner first.', 'role', 'last_owner');

/**
 * Changes a member's role. Admins manage admins, billing and members; only an owner makes or unmakes
 * owners. The last owner cannot be demoted (409 last_owner).
 */
export async function changeRole(deps: AccountsDeps, actor: MembershipRow, userId: number, role: OrganisationRole): Promise<void> {
  const target = await findMembership(deps.db, actor.id, userId);
  if (!target) throw apiNotFound('Member');
  if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner') throw forbidden('Only an owner makes or unmakes owners.', 'organisation_role');
  const outcome = await changeMemberRole(deps.db, actor.id, userId, role);
  if (outcome === 'missing') throw apiNotFound('Member');
  if (outcome === 'last_owner') throw lastOwner();
}

/** The owner hands the ownership to another member and stays on as an admin. */
export async function transfer(deps: AccountsDeps, actor: MembershipRow, actorUserId: number, toUserId: number): Promise<void> {
  if (actor.role !== 'owner') throw forbidden('Only an owner transfers the ownership.', 'organisation_role');
  const outcome = await transferOwnership(deps.db, actor.id, actorUserId, toUserId);
  if (outcome === 'missing') throw apiNotFound('Member');
}

/**
 * Removes a member (or the caller leaving): their organisation keys are deleted in the same transaction
 * and the change announced, so every instance refuses those keys from its next request on.
 */
export async function remove(deps: AccountsDeps, actor: MembershipRow, actorUserId: number, userId: number): Promise<{ revokedKeys: number }> {
  const self = userId === actorUserId;
  if (!self) {
    if (!isManager(actor)) throw forbidden('Only owners and admins remove members.', 'organisation_role');
    const target = await findMembership(deps.db, actor.id, userId);
    if (!target) throw apiNotFound('Member');
    if (target.role === 'owner' && actor.role !== 'owner') throw forbidden('Only an owner removes an owner.', 'organisation_role');
  }
  const { outcome, keyIds } = await removeMember(deps.db, actor, userId);
  if (outcome === 'missing') throw apiNotFound('Member');
  if (outcome === 'last_owner') throw conflict('The last owner cannot leave: transfer the ownership first.', 'user_id', 'last_owner');
  await deps.announce({ reason: 'organisation member removed', keyIds });
  return { revokedKeys: keyIds.length };
}

export async function setCap(deps: AccountsDeps, actor: MembershipRow, userId: number, capMicros: number | null): Promise<void> {
  if (!(await setMemberCap(deps.db, actor.id, userId, capMicros))) throw apiNotFound('Member');
  // The key index carries the caps: every instance reloads it.
  await deps.announce({ reason: 'organisation member cap changed' });
}
