// The whole product's schema: accounts, keys, routing, prices, usage, wallet, payments.
// Times are bigint epoch ms, money bigint micro-USD, JSON as text; the same on SQLite and PostgreSQL.
import type { Kysely, Migration } from 'kysely';
import { sql } from '../kysely-parts.ts';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function initialSchema(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('users')
        .addColumn('id', id.type, id.build)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('email_verified_at', 'bigint')
        .addColumn('totp_secret_encrypted', 'text')
        .addColumn('balance_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('rpm_limit', 'integer')
        .addColumn('tpm_limit', 'integer')
        .addColumn('settings_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema.createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await db.schema.createTable('email_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();

      await db.schema.createTable('groups')
        .addColumn('id', id.type, id.build)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('ratio_ppm', 'bigint', (c) => c.notNull().defaultTo(1_000_000))
        .addColumn('description', 'text')
        .addColumn('rpm_limit', 'integer')
        .addColumn('tpm_limit', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema.createTable('channels')
        .addColumn('id', id.type, id.build)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('api_keys_encrypted', 'text', (c) => c.notNull())
        .addColumn('models_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('model_mapping_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('groups_json', 'text', (c) => c.notNull().defaultTo('["default"]'))
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
        .addColumn('status_reason', 'text')
        .addColumn('settings_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema.createTable('models')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owned_by', 'text', (c) => c.notNull().defaultTo('system'))
        .addColumn('pricing_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('free', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fallbacks_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('context_window', 'integer')
        .addColumn('max_output_tokens', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema.createTable('api_keys')
        .addColumn('id', id.type, id.build)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('group_name', 'text', (c) => c.notNull().defaultTo('default'))
        .addColumn('models_json', 'text')
        .addColumn('quota_micros', 'bigint')
        .addColumn('used_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint')
        .addColumn('ip_allowlist_json', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('rpm_limit', 'integer')
        .addColumn('tpm_limit', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addUniqueConstraint('api_keys_user_name', ['user_id', 'name'])
        .execute();

      await db.schema.createTable('usage_logs')
        .addColumn('id', id.type, id.build)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint')
        .addColumn('key_id', 'bigint')
        .addColumn('key_name', 'text')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('upstream_model', 'text')
        .addColumn('channel_id', 'bigint')
        .addColumn('inbound_format', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('stream', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('ttft_ms', 'integer')
        .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cached_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('reasoning_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cost_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('attempts_json', 'text')
        .execute();
      await db.schema.createIndex('usage_logs_created_at').on('usage_logs').column('created_at').execute();
      await db.schema.createIndex('usage_logs_user_time').on('usage_logs').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('usage_logs_key_time').on('usage_logs').columns(['key_id', 'created_at']).execute();

      await db.schema.createTable('wallet_ledger')
        .addColumn('id', id.type, id.build)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount_micros', 'bigint', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('note', 'text')
        .execute();
      await db.schema.createIndex('wallet_ledger_user').on('wallet_ledger').columns(['user_id', 'created_at']).execute();
      // A retried charge or a replayed payment webhook cannot apply twice.
      await db.schema.createIndex('wallet_ledger_kind_reference').unique().on('wallet_ledger').columns(['kind', 'reference'])
        .where(sql.ref('reference'), 'is not', null).execute();

      await db.schema.createTable('usage_stats')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('bucket_start', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('key_id', 'bigint', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cost_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_stats_pk', ['bucket', 'bucket_start', 'user_id', 'key_id', 'model'])
        .execute();

      await db.schema.createTable('payments')
        .addColumn('id', id.type, id.build)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_session_id', 'text', (c) => c.notNull().unique())
        .addColumn('amount_micros', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .execute();

      await db.schema.createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value_json', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      const now = Date.now();
      await db.insertInto('groups' as never).values({ name: 'default', ratio_ppm: 1_000_000, description: 'Sees every model', created_at: now, updated_at: now } as never).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['settings', 'payments', 'usage_stats', 'wallet_ledger', 'usage_logs', 'api_keys', 'models', 'channels', 'groups', 'email_tokens', 'sessions', 'users']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
