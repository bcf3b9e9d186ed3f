// Invitations to an organisation: one row per mailed link, stored by the SHA-256 of its token. A link is
// accepted once (a conditional update), before it expires, unless an admin revoked it.
import type { OrganisationInviteRow, OrganisationRole } from '../schema.ts';
import { inTransaction, type Db } from './repository-helpers.ts';

export async function insertInvite(db: Db, invite: { organisationId: number; email: string; role: OrganisationRole; tokenHash: string; invitedBy: number; expiresAt: number }, now = Date.now()): Promise<OrganisationInviteRow> {
  return db.insertInto('organisation_invites').values({
    organisation_id: invite.organisationId, email: invite.email, role: invite.role, token_hash: invite.tokenHash, invited_by: invite.invitedBy,
    created_at: now, expires_at: invite.expiresAt, accepted_at: null, accepted_by: null, revoked_at: null,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Invitations not yet accepted nor revoked (expired ones included, marked by their expiry), newest first. */
export async function listPendingInvites(db: Db, organisationId: number): Promise<OrganisationInviteRow[]> {
  return db.selectFrom('organisation_invites').selectAll().where('organisation_id', '=', organisationId)
    .where('accepted_at', 'is', null).where('revoked_at', 'is', null).orderBy('id', 'desc').limit(500).execute();
}

export async function countRecentInvites(db: Db, organisationId: number, since: number): Promise<number> {
  const row = await db.selectFrom('organisation_invites').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organisation_id', '=', organisationId).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Revokes a pending invitation of this organisation; false when there is none with that id. */
export async function revokeInvite(db: Db, organisationId: number, id: number, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('organisation_invites').set({ revoked_at: now })
    .where('id', '=', id).where('organisation_id', '=', organisationId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findInviteByTokenHash(db: Db, tokenHash: string): Promise<OrganisationInviteRow | undefined> {
  return db.selectFrom('organisation_invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Accepts an invitation for `userId`: the link is used up and the member added in one transaction, so a
 * link followed twice (two tabs, a replay) adds nobody the second time. Answers the invitation accepted.
 */
export async function acceptInvite(db: Db, tokenHash: string, userId: number, now = Date.now()): Promise<OrganisationInviteRow | undefined> {
  return inTransaction(db, async (trx) => {
    const claimed = await trx.updateTable('organisation_invites').set({ accepted_at: now, accepted_by: userId })
      .where('token_hash', '=', tokenHash).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now)
      .returningAll().executeTakeFirst();
    if (!claimed) return undefined;
    await trx.insertInto('organisation_members').values({ organisation_id: claimed.organisation_id, user_id: userId, role: claimed.role, monthly_cap_micros: null, created_at: now })
      .onConflict((conflict) => conflict.columns(['organisation_id', 'user_id']).doNothing()).execute();
    return claimed;
  });
}
