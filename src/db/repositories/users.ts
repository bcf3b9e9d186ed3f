// Users. The balance is never written here: it moves only through the wallet ledger (wallet-ledger.ts),
// which keeps users.balance_micros equal to the sum of the user's ledger rows.
import type { UserRow, UsersTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

/** Everything a caller may set on a user; the balance and the timestamps are the repository's business. */
type UserFields = Partial<Omit<UsersTable, 'id' | 'name' | 'kind' | 'balance_micros' | 'created_at' | 'updated_at'>>;

export async function createUser(db: Db, name: string, fields: UserFields = {}, now = Date.now()): Promise<UserRow> {
  return db.insertInto('users').values({
    name,
    email: fields.email ?? null,
    password_hash: fields.password_hash ?? null,
    role: fields.role ?? 'user',
    status: fields.status ?? 'active',
    email_verified_at: fields.email_verified_at ?? null,
    totp_secret_encrypted: fields.totp_secret_encrypted ?? null,
    balance_micros: 0,
    rpm_limit: fields.rpm_limit ?? null,
    tpm_limit: fields.tpm_limit ?? null,
    settings_json: fields.settings_json ?? '{}',
    created_at: now,
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByName(db: Db, name: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** For the declarative config: insert when absent, else update the given fields that differ. */
export async function upsertUserByName(db: Db, name: string, fields: UserFields, now = Date.now()): Promise<UpsertResult<UserRow>> {
  return upsertRow<UserRow>(db, { table: 'users', key: { name }, fields: stripBalance(fields), idColumn: 'id', now });
}

/** Returns whether the status changed (false when the user does not exist or already had it). */
export async function setUserStatus(db: Db, id: number, status: UserRow['status'], now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('users').set({ status, updated_at: now })
    .where('id', '=', id).where('status', '!=', status).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

interface ListUsersOptions {
  limit?: number;
  offset?: number;
  status?: UserRow['status'];
}

export async function listUsers(db: Db, options: ListUsersOptions = {}): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll().orderBy('id').limit(options.limit ?? 1000).offset(options.offset ?? 0);
  if (options.status) query = query.where('status', '=', options.status);
  return query.execute();
}

/** A caller passing a whole row (balance included) must not overwrite the ledger-maintained balance. */
function stripBalance(fields: UserFields): UserFields {
  const { balance_micros: _ignored, ...rest } = fields as UserFields & { balance_micros?: number };
  return rest;
}
