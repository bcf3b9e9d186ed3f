// Where accounting finds a wallet's balance and a key's spend the first time it sees them.
import { findApiKeySpend } from '../db/repositories/api-keys.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { findUserBalance } from '../db/repositories/users.ts';
import type { AccountingStore } from './accounting.ts';

export function databaseAccountingStore(db: Db): AccountingStore {
  return {
    loadBalance: (userId) => findUserBalance(db, userId),
    loadKeyUsed: (keyId) => findApiKeySpend(db, keyId),
  };
}
