// Sign-in with an identity provider (OpenID Connect, GitHub) and with passkeys (issue 34). Providers keep
// their client secret encrypted; a user's identities are keyed by (provider, subject), never by e-mail; a
// sign-in flow (state, nonce, PKCE verifier) lives until it is used once or expires; a passkey keeps its
// public key and signature counter; a passkey challenge, once answered, is remembered until it expires so
// it is never accepted twice.
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function signinSchema(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('identity_providers')
        .addColumn('id', id.type, id.build)
        // In URLs: /api/auth/oidc/<slug>/start.
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        // 'oidc' (discovery from the issuer) or 'github' (OAuth with GitHub's API).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        // 'config' when the config file declares it (the file wins on every start), else 'admin'.
        .addColumn('source', 'text', (c) => c.notNull().defaultTo('admin'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createTable('user_identities')
        .addColumn('id', id.type, id.build)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider_id', 'bigint', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('user_identities_provider_subject', ['provider_id', 'subject'])
        .execute();
      await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
      await db.schema.createTable('signin_flows')
        // SHA-256 of the random value in the browser's gw_signin cookie: the flow belongs to that browser.
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'bigint', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
        // JSON {state, nonce, verifier, next}, encrypted.
        .addColumn('data_encrypted', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('signin_flows_expires').on('signin_flows').column('expires_at').execute();
      await db.schema.createTable('passkeys')
        .addColumn('id', id.type, id.build)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // The authenticator's credential id (base64url), as the browser presents it at sign-in.
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull())
        .addColumn('transports', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
      await db.schema.createTable('used_challenges')
        .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['used_challenges', 'passkeys', 'signin_flows', 'user_identities', 'identity_providers']) await db.schema.dropTable(table).ifExists().execute();
    },
  };
}
