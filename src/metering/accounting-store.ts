// Where accounting finds a wallet's balance and a key's spend the first time it sees them.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { AccountingStore } from './accounting.ts';

export function databaseAccountingStore(db: Kysely<DatabaseSchema>): AccountingStore {
  return {
    async loadBalance(userId) {
      const row = await db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirst();
      return row?.balance_micros ?? 0;
    },
    async loadKeyUsed(keyId) {
      const row = await db.selectFrom('api_keys').select('used_micros').where('id', '=', keyId).executeTakeFirst();
      return row?.used_micros ?? 0;
    },
  };
}
