// Users. The balance is never written here: it moves only through the wallet ledger (wallet-ledger.ts),
// which keeps users.balance_micros equal to the sum of the user's ledger rows.
import type { UserRow, UsersTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import { engineOf } from '../engine.ts';
import { inTransaction, type Db, type UpsertResult } from './repository-helpers.ts';

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

/** The cached balance (0 for a user not stored), read once per wallet by accounting. */
export async function findUserBalance(db: Db, id: number): Promise<number> {
  const row = await db.selectFrom('users').select('balance_micros').where('id', '=', id).executeTakeFirst();
  return row?.balance_micros ?? 0;
}

/** Every user, for the in-memory key index (src/gateway-state.ts). */
export async function listAllUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('id').execute();
}

export async function promoteToActiveAdmin(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ role: 'admin', status: 'active', updated_at: now }).where('id', '=', id).execute();
}

/**
 * A page of users by id after `after`, those whose e-mail, name or settings (the profile's name) contain
 * `q` when given, case-insensitively. One more than `limit` tells the caller there is a next page.
 */
export async function searchUsersPage(db: Db, query: { q?: string | undefined; limit: number; after?: number | undefined }): Promise<UserRow[]> {
  let select = db.selectFrom('users').selectAll().orderBy('id').limit(query.limit + 1);
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where((eb) => eb.or([eb(eb.fn('lower', ['email']), 'like', pattern), eb(eb.fn('lower', ['name']), 'like', pattern), eb(eb.fn('lower', ['settings_json']), 'like', pattern)]));
  }
  if (query.after !== undefined) select = select.where('id', '>', query.after);
  return select.execute();
}

/**
 * Writes an administrator's change to a user. When `keepAnAdmin` is set (the change demotes or disables an
 * active administrator), it runs only if another active administrator remains, else `refuse()` is thrown;
 * the active administrators are locked (PostgreSQL) so two admins demoting each other at once cannot both
 * succeed; SQLite runs one write transaction at a time anyway.
 */
export async function updateUserKeepingAnAdmin(db: Db, id: number, set: Partial<Omit<UserRow, 'id'>>, keepAnAdmin: boolean, refuse: () => Error): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (keepAnAdmin) {
      let admins = trx.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 'active');
      if (engineOf(trx) === 'postgres') admins = admins.forUpdate();
      const others = (await admins.execute()).filter((row) => Number(row.id) !== id);
      if (others.length === 0) throw refuse();
    }
    await trx.updateTable('users').set(set).where('id', '=', id).execute();
  });
}

/** The user whose e-mail is `email`, compared case-insensitively (addresses stored before normalisation too). */
export async function findUserIdByEmailAnyCase(db: Db, email: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
  return row?.id;
}

/** A mailed verification link was followed: the address counts as verified (once; a second link changes nothing). */
export async function markEmailVerified(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: now, updated_at: now }).where('id', '=', id).where('email_verified_at', 'is', null).execute();
}

/** A confirmed e-mail change: the new address, verified. Throws when another account took the address meanwhile. */
export async function setVerifiedEmail(db: Db, id: number, email: string, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ email, email_verified_at: now, updated_at: now }).where('id', '=', id).execute();
}

export async function setUserSettingsJson(db: Db, id: number, settingsJson: string, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ settings_json: settingsJson, updated_at: now }).where('id', '=', id).execute();
}

export async function setPasswordHash(db: Db, id: number, passwordHash: string, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
}

/** A password set through a mailed link; following the link also proves the address (verified unless it already was). */
export async function setPasswordFromMailedLink(db: Db, id: number, passwordHash: string, now = Date.now()): Promise<UserRow> {
  return db.updateTable('users').set((eb) => ({ password_hash: passwordHash, updated_at: now, email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function getUserById(db: Db, id: number): Promise<UserRow> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * Replaces a user's settings_json only if it is still `expected` (what the caller read): a compare-and-set,
 * so two instances cannot both act on the same state. False when it changed meanwhile.
 */
export async function replaceUserSettingsJson(db: Db, id: number, expected: string, next: string): Promise<boolean> {
  const result = await db.updateTable('users').set({ settings_json: next }).where('id', '=', id).where('settings_json', '=', expected).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Active users with an e-mail address whose settings mention notifications (the settings JSON is small). */
export async function listUsersWithNotifications(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('status', '=', 'active').where('email', 'is not', null)
    .where('settings_json', 'like', '%"notifications"%').execute();
}

/** An identity provider vouched for the unverified address: it becomes verified and the unproven password goes. */
export async function verifyEmailDroppingPassword(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: now, password_hash: null, updated_at: now }).where('id', '=', id).execute();
}

/** The handles and e-mails of these users (one indexed read). */
export async function listUserLabels(db: Db, ids: readonly number[]): Promise<Pick<UserRow, 'id' | 'name' | 'email'>[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', [...ids]).execute();
}
