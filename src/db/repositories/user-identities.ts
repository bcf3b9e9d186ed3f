// A person's ways to sign in besides a password: identities linked at identity providers, and passkeys.
import { engineOf } from '../engine.ts';
import { inTransaction, type Db } from './repository-helpers.ts';
import type { IdentityProvidersTable } from '../schema.ts';

export interface LinkedIdentityRow {
  id: number;
  provider_name: string;
  provider_slug: string;
  provider_kind: IdentityProvidersTable['kind'];
  provider_enabled: number;
  email: string | null;
  created_at: number;
  last_used_at: number;
}

export async function listLinkedIdentities(db: Db, userId: number): Promise<LinkedIdentityRow[]> {
  const rows = await db.selectFrom('user_identities').innerJoin('identity_providers', 'identity_providers.id', 'user_identities.provider_id')
    .select(['user_identities.id', 'identity_providers.name as provider_name', 'identity_providers.slug as provider_slug', 'identity_providers.kind as provider_kind',
      'identity_providers.enabled as provider_enabled', 'user_identities.email', 'user_identities.created_at', 'user_identities.last_used_at'])
    .where('user_identities.user_id', '=', userId).orderBy('user_identities.id').execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), provider_enabled: Number(row.provider_enabled) }));
}


export interface RemainingWays {
  passwordSet: boolean;
  identities: LinkedIdentityRow[];
  passkeys: number;
}

/**
 * Removes one identity or one passkey of the user when `allowed` says what is left still signs them in.
 * Counted and removed in one transaction with the user's row locked (PostgreSQL), so two removals at once
 * cannot both take what each thought was the second-last way. 'missing' when there is no such row of theirs.
 */
export async function removeSignInWay(db: Db, userId: number, what: { identityId: number } | { passkeyId: number }, allowed: (left: RemainingWays, before: RemainingWays) => boolean): Promise<'removed' | 'missing' | 'last'> {
  return inTransaction(db, async (trx) => {
    const user = trx.selectFrom('users').select('password_hash').where('id', '=', userId);
    const row = await (engineOf(trx) === 'postgres' ? user.forUpdate() : user).executeTakeFirst();
    if (!row) return 'missing';
    const identities = await listLinkedIdentities(trx, userId);
    const passkeys = await trx.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute();
    const before: RemainingWays = { passwordSet: row.password_hash !== null, identities, passkeys: passkeys.length };
    const left: RemainingWays = { ...before };
    if ('identityId' in what) {
      if (!identities.some((identity) => identity.id === what.identityId)) return 'missing';
      left.identities = identities.filter((identity) => identity.id !== what.identityId);
    } else {
      if (!passkeys.some((passkey) => Number(passkey.id) === what.passkeyId)) return 'missing';
      left.passkeys -= 1;
    }
    if (!allowed(left, before)) return 'last';
    if ('identityId' in what) await trx.deleteFrom('user_identities').where('id', '=', what.identityId).where('user_id', '=', userId).execute();
    else await trx.deleteFrom('passkeys').where('id', '=', what.passkeyId).where('user_id', '=', userId).execute();
    return 'removed';
  });
}

/** The identity linked for this provider's subject, or undefined. */
export async function findLinkedIdentity(db: Db, providerId: number, subject: string): Promise<{ id: number; user_id: number } | undefined> {
  return db.selectFrom('user_identities').select(['id', 'user_id']).where('provider_id', '=', providerId).where('subject', '=', subject).executeTakeFirst();
}

export async function touchLinkedIdentity(db: Db, id: number, email: string | null, now: number): Promise<void> {
  await db.updateTable('user_identities').set({ last_used_at: now, email }).where('id', '=', id).execute();
}

/** Links the subject to the user; a link that already exists stays as it is. */
export async function linkIdentity(db: Db, userId: number, providerId: number, subject: string, email: string, now: number): Promise<void> {
  await db.insertInto('user_identities').values({ user_id: userId, provider_id: providerId, subject, email, created_at: now, last_used_at: now })
    .onConflict((c) => c.columns(['provider_id', 'subject']).doNothing()).execute();
}
