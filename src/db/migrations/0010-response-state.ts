// Responses API state the gateway keeps itself, for channels that keep none (Anthropic, Gemini, chat-only
// OpenAI-compatible servers): the response each continues (`previous_response_id`, to rebuild a chain), and
// one row per item so an `item_reference` finds its item by id and input_items pages through them. Rows
// with no item_json only record who owns an item an upstream keeps (an OpenAI channel's output items), so
// a reference to it is relayed for its owner only.
import type { Kysely, Migration } from 'kysely';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const responseState: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('responses').addColumn('previous_response_id', 'text').execute();
    await db.schema.createTable('response_items')
      .addColumn('response_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      // 'input' or 'output': which list of its response the item belongs to.
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('item_json', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addPrimaryKeyConstraint('response_items_pk', ['response_id', 'position'])
      .execute();
    await db.schema.createIndex('response_items_owner_item').on('response_items').columns(['user_id', 'item_id']).execute();
    await db.schema.createIndex('response_items_expires_at').on('response_items').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('response_items').ifExists().execute();
    await db.schema.alterTable('responses').dropColumn('previous_response_id').execute();
  },
};
