// Organisations (issue 34): a shared wallet, members with roles and monthly caps, invitations by e-mail.
// An organisation's wallet is a users row of its own (kind 'organisation': no e-mail, no password, so nobody
// signs in to it), so accounting, the ledger, Stripe and redemption codes move its money unchanged. Its keys
// are api_keys rows of that wallet account; member_user_id names the member who holds each one.
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function organisationsSchema(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('kind', 'text', (c) => c.notNull().defaultTo('person')).execute();
      await db.schema.createTable('organisations')
        .addColumn('id', id.type, id.build)
        .addColumn('name', 'text', (c) => c.notNull())
        // The users row holding the shared wallet (users.kind = 'organisation').
        .addColumn('wallet_user_id', 'bigint', (c) => c.notNull().unique())
        // The channel group of every organisation key; set by a platform administrator.
        .addColumn('group_name', 'text', (c) => c.notNull().defaultTo('default'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createTable('organisation_members')
        .addColumn('organisation_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        // owner, admin, billing or member.
        .addColumn('role', 'text', (c) => c.notNull())
        // What the member's organisation keys may spend per calendar month (UTC), or null for no cap.
        .addColumn('monthly_cap_micros', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('organisation_members_pk', ['organisation_id', 'user_id'])
        .execute();
      await db.schema.createIndex('organisation_members_user').on('organisation_members').column('user_id').execute();
      await db.schema.createTable('organisation_invites')
        .addColumn('id', id.type, id.build)
        .addColumn('organisation_id', 'bigint', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        // SHA-256 of the token mailed in the link; the token itself is only in the mail.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint')
        .addColumn('accepted_by', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('organisation_invites_org').on('organisation_invites').column('organisation_id').execute();
      await db.schema.alterTable('api_keys').addColumn('member_user_id', 'bigint').execute();
      await db.schema.createIndex('api_keys_member').on('api_keys').columns(['member_user_id', 'user_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('api_keys_member').execute();
      await db.schema.alterTable('api_keys').dropColumn('member_user_id').execute();
      await db.schema.dropTable('organisation_invites').execute();
      await db.schema.dropTable('organisation_members').execute();
      await db.schema.dropTable('organisations').execute();
      await db.schema.alterTable('users').dropColumn('kind').execute();
    },
  };
}
