// The organisation repository's guarantees on SQLite and PostgreSQL, under concurrency: two owners demoting
// each other (or leaving) at once leave one owner; an invitation followed twice at once adds the member once;
// removing a member deletes exactly their organisation keys, in the same transaction.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';
import { changeMemberRole, createOrganisationWithOwner, listMembers, removeMember } from '../../src/db/repositories/organisations.ts';
import { acceptInvite, insertInvite } from '../../src/db/repositories/organisation-invites.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import { insertApiKey } from '../../src/db/repositories/api-keys.ts';

describe.each(withTestDatabases())('organisation repositories on %s', (target) => {
  const database = useTestDatabase(target);
  const db = () => database().db;
  const person = (name: string) => createUser(db(), `${name}-${randomBytes(3).toString('hex')}`, { email: `${name}-${randomBytes(3).toString('hex')}@example.com` });

  it('keeps one owner when two owners demote each other at the same moment', async () => {
    const [ann, ben] = [await person('ann'), await person('ben')];
    const org = await createOrganisationWithOwner(db(), 'Race', ann.id);
    await db().insertInto('organisation_members').values({ organisation_id: org.id, user_id: ben.id, role: 'owner', monthly_cap_micros: null, created_at: Date.now() }).execute();
    const outcomes = await Promise.all([changeMemberRole(db(), org.id, ann.id, 'admin'), changeMemberRole(db(), org.id, ben.id, 'admin')]);
    expect(outcomes.sort()).toEqual(['changed', 'last_owner']);
    expect((await listMembers(db(), org.id)).filter((member) => member.role === 'owner')).toHaveLength(1);
  });

  it('keeps one owner when two owners leave at the same moment', async () => {
    const [ann, ben] = [await person('ann'), await person('ben')];
    const org = await createOrganisationWithOwner(db(), 'Exodus', ann.id);
    await db().insertInto('organisation_members').values({ organisation_id: org.id, user_id: ben.id, role: 'owner', monthly_cap_micros: null, created_at: Date.now() }).execute();
    const outcomes = await Promise.all([removeMember(db(), org, ann.id), removeMember(db(), org, ben.id)]);
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['last_owner', 'removed']);
    expect(await listMembers(db(), org.id)).toHaveLength(1);
  });

  it('accepts an invitation once, however many times it is followed at once', async () => {
    const [owner, guest] = [await person('owner'), await person('guest')];
    const org = await createOrganisationWithOwner(db(), 'Once', owner.id);
    const tokenHash = randomBytes(16).toString('hex');
    await insertInvite(db(), { organisationId: org.id, email: guest.email!, role: 'member', tokenHash, invitedBy: owner.id, expiresAt: Date.now() + 60_000 });
    const accepted = await Promise.all(Array.from({ length: 5 }, () => acceptInvite(db(), tokenHash, guest.id)));
    expect(accepted.filter(Boolean)).toHaveLength(1);
    expect(await listMembers(db(), org.id)).toHaveLength(2);
    // Expired links are refused.
    const expired = randomBytes(16).toString('hex');
    await insertInvite(db(), { organisationId: org.id, email: 'late@example.com', role: 'member', tokenHash: expired, invitedBy: owner.id, expiresAt: Date.now() - 1 });
    expect(await acceptInvite(db(), expired, (await person('late')).id)).toBeUndefined();
  });

  it("deletes exactly the removed member's organisation keys", async () => {
    const [owner, leaver] = [await person('owner'), await person('leaver')];
    const org = await createOrganisationWithOwner(db(), 'Keys', owner.id);
    await db().insertInto('organisation_members').values({ organisation_id: org.id, user_id: leaver.id, role: 'member', monthly_cap_micros: null, created_at: Date.now() }).execute();
    const key = (name: string, member: number | null, userId = org.wallet_user_id) => insertApiKey(db(), { user_id: userId, member_user_id: member, name, key_hash: randomBytes(16).toString('hex'), key_prefix: 'sk-x' });
    const leaverKey = await key('leaver-org', leaver.id);
    const ownerKey = await key('owner-org', owner.id);
    const personal = await key('leaver-own', null, leaver.id);
    const { outcome, keyIds } = await removeMember(db(), org, leaver.id);
    expect(outcome).toBe('removed');
    expect(keyIds).toEqual([leaverKey.id]);
    const statuses = Object.fromEntries((await db().selectFrom('api_keys').select(['id', 'status']).where('id', 'in', [leaverKey.id, ownerKey.id, personal.id]).execute()).map((row) => [row.id, row.status]));
    expect(statuses).toEqual({ [leaverKey.id]: 'deleted', [ownerKey.id]: 'active', [personal.id]: 'active' });
  });
});
