// Invitations by e-mail: a single-use link valid 7 days. Inviting answers the same whatever the address
// (an account or not, a member already or not), so the form tells nothing about who has an account. The
// link is accepted by a signed-in, verified account with the address it was sent to.
import { createHash, randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import { normalizeEmail } from './accounts-deps.ts';
import type { OrganisationRole, UserRow } from '../db/schema.ts';
import type { MembershipRow } from '../db/repositories/organisations.ts';
import { acceptInvite, countRecentInvites, findInviteByTokenHash, insertInvite, listPendingInvites, revokeInvite } from '../db/repositories/organisation-invites.ts';
import { findOrganisation, listMembershipsOfUser } from '../db/repositories/organisations.ts';
import { MAX_ORGANISATIONS_PER_USER } from './organisations.ts';
import { organisationInviteMail } from './mail/mail-templates.ts';
import { apiNotFound, forbidden, invalidRequest } from '../gateway-errors.ts';

const INVITE_TTL_MS = 7 * 86_400_000;
const INVITES_PER_DAY = 100;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const invalidInvitation = () => invalidRequest('This invitation is not valid: it was used, revoked or has expired, or it was sent to another address than the one you are signed in with.', 'token', 'invalid_invitation');

export async function invite(deps: AccountsDeps, actor: MembershipRow, inviter: UserRow, email: string, role: OrganisationRole) {
  if (role === 'owner' && actor.role !== 'owner') throw forbidden('Only an owner invites owners.', 'organisation_role');
  if (await countRecentInvites(deps.db, actor.id, Date.now() - 86_400_000) >= INVITES_PER_DAY) {
    throw invalidRequest(`At most ${INVITES_PER_DAY} invitations a day per organisation.`, null, 'too_many_invitations');
  }
  const address = normalizeEmail(email);
  const token = randomBytes(32).toString('base64url');
  const row = await insertInvite(deps.db, { organisationId: actor.id, email: address, role, tokenHash: hashToken(token), invitedBy: inviter.id, expiresAt: Date.now() + INVITE_TTL_MS });
  const link = `${deps.publicUrl()}/orgs/join?token=${token}`;
  await deps.outbox.enqueue(organisationInviteMail(address, actor.name, inviter.name || inviter.email || 'A member', link), link);
  return inviteView(row);
}

function inviteView(row: { id: number; email: string; role: OrganisationRole; created_at: number; expires_at: number }) {
  return {
    id: Number(row.id),
    email: row.email,
    role: row.role,
    created_at: new Date(Number(row.created_at)).toISOString(),
    expires_at: new Date(Number(row.expires_at)).toISOString(),
    expired: Number(row.expires_at) <= Date.now(),
  };
}

export async function pendingInvites(deps: Pick<AccountsDeps, 'db'>, organisationId: number) {
  return (await listPendingInvites(deps.db, organisationId)).map(inviteView);
}

export async function revoke(deps: Pick<AccountsDeps, 'db'>, organisationId: number, id: number): Promise<void> {
  if (!(await revokeInvite(deps.db, organisationId, id))) throw apiNotFound('Invitation');
}

/** Joins the organisation the link names; the same 400 for every link that cannot be used. */
export async function accept(deps: AccountsDeps, user: UserRow, token: string): Promise<{ organisationId: number; role: OrganisationRole; name: string }> {
  const tokenHash = hashToken(token);
  const found = await findInviteByTokenHash(deps.db, tokenHash);
  if (!found || user.email === null || normalizeEmail(user.email) !== found.email) throw invalidInvitation();
  // Joining counts as creating does: the invitation stays usable once the user has left another.
  if ((await listMembershipsOfUser(deps.db, user.id)).length >= MAX_ORGANISATIONS_PER_USER) throw invalidRequest(`You belong to ${MAX_ORGANISATIONS_PER_USER} organisations, the most allowed.`, null, 'too_many_organisations');
  const accepted = await acceptInvite(deps.db, tokenHash, user.id);
  if (!accepted) throw invalidInvitation();
  const organisation = await findOrganisation(deps.db, Number(accepted.organisation_id));
  return { organisationId: Number(accepted.organisation_id), role: accepted.role, name: organisation?.name ?? '' };
}
