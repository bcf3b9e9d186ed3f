// Responses API state the gateway keeps: for now who owns each response id it relayed (so one user cannot
// continue, read or delete another's conversation), and on which channel it lives upstream. Shaped so a
// later change can keep whole responses here for channels without server-side state (Anthropic, Gemini):
// `state_kept_by` says where the conversation lives, `response_json`/`input_json` hold it when the gateway does.
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const responsesTable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('responses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('key_id', 'bigint')
      .addColumn('channel_id', 'bigint')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('state_kept_by', 'text', (c) => c.notNull().defaultTo('upstream'))
      .addColumn('response_json', 'text')
      .addColumn('input_json', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema.createIndex('responses_user_time').on('responses').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('responses_expires_at').on('responses').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('responses').ifExists().execute();
  },
};
