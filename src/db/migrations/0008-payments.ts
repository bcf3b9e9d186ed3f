// Payments: what a Stripe Checkout top-up needs to be credited exactly once and refunded exactly once,
// and redemption codes (stored hashed, single use).
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function paymentsSchema(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payments').addColumn('payment_intent', 'text').execute();
      await db.schema.alterTable('payments').addColumn('refunded_micros', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('payments').addColumn('receipt_url', 'text').execute();
      await db.schema.alterTable('payments').addColumn('checkout_url', 'text').execute();
      await db.schema.alterTable('payments').addColumn('updated_at', 'bigint').execute();
      await db.schema.createIndex('payments_user').on('payments').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('payments_payment_intent').on('payments').column('payment_intent').execute();

      await db.schema.createTable('redemption_codes')
        .addColumn('id', id.type, id.build)
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        // The first characters, so an admin can tell codes apart without the secret part.
        .addColumn('code_prefix', 'text', (c) => c.notNull())
        .addColumn('amount_micros', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_by', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('redeemed_by', 'bigint')
        .addColumn('redeemed_at', 'bigint')
        .execute();
    },
  };
}
