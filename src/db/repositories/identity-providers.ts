// Identity providers' rows (src/accounts/identity-provider-store.ts validates and encrypts; the client
// secret arrives here already encrypted).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { IdentityProvidersTable } from '../schema.ts';
import { inTransaction, type Db } from './repository-helpers.ts';

export type IdentityProviderRow = Selectable<IdentityProvidersTable>;

export async function listIdentityProviderRows(db: Db, onlyEnabled: boolean): Promise<IdentityProviderRow[]> {
  let query = db.selectFrom('identity_providers').selectAll().orderBy('id');
  if (onlyEnabled) query = query.where('enabled', '=', 1);
  return query.execute();
}

export async function findIdentityProviderRowBySlug(db: Db, slug: string): Promise<IdentityProviderRow | undefined> {
  return db.selectFrom('identity_providers').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function findIdentityProviderRowById(db: Db, id: number): Promise<IdentityProviderRow | undefined> {
  return db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertIdentityProvider(db: Db, row: Insertable<IdentityProvidersTable>): Promise<IdentityProviderRow> {
  return db.insertInto('identity_providers').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateIdentityProviderRow(db: Db, id: number, changes: Updateable<IdentityProvidersTable>): Promise<void> {
  await db.updateTable('identity_providers').set(changes).where('id', '=', id).execute();
}

/** Deletes a provider with its flows under way and every identity linked at it (the accounts stay), in one transaction. */
export async function deleteIdentityProviderRow(db: Db, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('signin_flows').where('provider_id', '=', id).execute();
    await trx.deleteFrom('user_identities').where('provider_id', '=', id).execute();
    await trx.deleteFrom('identity_providers').where('id', '=', id).execute();
  });
}
