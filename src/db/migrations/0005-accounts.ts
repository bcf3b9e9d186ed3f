// Accounts: sessions with public ids and two stages, e-mail tokens with a payload, two-factor state,
// recovery codes, sign-in throttling, the mail outbox and the admin audit log.
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function accountsSchema(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      // Nothing wrote sessions before this migration; recreate the table with the columns sessions need.
      await db.schema.dropTable('sessions').ifExists().execute();
      await db.schema.createTable('sessions')
        // Public id (random), shown in the sessions list and used to revoke; never the token.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // 'active', or 'pending_totp' between the password step and the second factor.
        .addColumn('stage', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        // Absolute end (30 days after sign-in); the idle end is last_seen_at + 7 days.
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await db.schema.alterTable('email_tokens').addColumn('data', 'text').execute();
      await db.schema.createIndex('email_tokens_user').on('email_tokens').columns(['user_id', 'purpose']).execute();

      await db.schema.alterTable('users').addColumn('totp_pending_encrypted', 'text').execute();
      // The last accepted TOTP time step: a code is never accepted twice.
      await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();

      await db.schema.createTable('recovery_codes')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
        .execute();

      await db.schema.createTable('login_failures')
        .addColumn('id', id.type, id.build)
        // 'ip:1.2.3.4' or 'account:<email>'
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_subject_at').on('login_failures').columns(['subject', 'at']).execute();

      await db.schema.createTable('mail_outbox')
        .addColumn('id', id.type, id.build)
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        // A sender claims a row until then, so two instances never send the same mail at once.
        .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .execute();
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('mail_outbox_recipient').on('mail_outbox').columns(['to_address', 'created_at']).execute();

      await db.schema.createTable('audit_log')
        .addColumn('id', id.type, id.build)
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_user_id', 'bigint')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('before_json', 'text')
        .addColumn('after_json', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();

      // Logs filtered by model and newest first, for the dashboard.
      await db.schema.createIndex('usage_logs_user_model_time').on('usage_logs').columns(['user_id', 'model', 'created_at']).execute();
      // A user's (or a key's) statistics read their own aggregate rows, not every user's in the range.
      await db.schema.createIndex('usage_stats_user_bucket').on('usage_stats').columns(['user_id', 'bucket', 'bucket_start']).execute();
      // The wallet page lists a user's movements other than charges without walking every charge row.
      await db.schema.createIndex('wallet_ledger_user_kind_time').on('wallet_ledger').columns(['user_id', 'kind', 'created_at']).execute();
      await db.schema.createIndex('usage_stats_key_bucket').on('usage_stats').columns(['key_id', 'bucket', 'bucket_start']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['audit_log', 'mail_outbox', 'login_failures', 'recovery_codes']) await db.schema.dropTable(table).ifExists().execute();
      for (const index of ['usage_logs_user_model_time', 'usage_stats_user_bucket', 'usage_stats_key_bucket', 'wallet_ledger_user_kind_time']) await db.schema.dropIndex(index).ifExists().execute();
    },
  };
}
