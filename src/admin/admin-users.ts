// Users administered at runtime: search, create (a one-time link to set the password), disable, role,
// limits, reset two-factor. A change of role or status ends the user's sessions (a privilege change) and is
// announced, so every instance's key index follows on its next request.
import type { AccountsDeps } from '../accounts/accounts-deps.ts';
import { normalizeEmail } from '../accounts/accounts-deps.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { issueEmailToken } from '../accounts/email-tokens.ts';
import { setPasswordMail } from '../accounts/mail/mail-templates.ts';
import { endUserSessions } from '../accounts/sessions.ts';
import { clearTwoFactor } from '../accounts/two-factor.ts';
import { userView } from '../accounts/user-view.ts';
import { createUser, findUserByEmail, findUserById, searchUsersPage, updateUserKeepingAnAdmin } from '../db/repositories/users.ts';
import type { UserRow } from '../db/schema.ts';
import { apiNotFound, conflict } from '../gateway-errors.ts';
import { randomBytes } from 'node:crypto';

export function adminUserView(user: UserRow) {
  return { ...userView(user), rpm_limit: user.rpm_limit, tpm_limit: user.tpm_limit, updated_at: new Date(user.updated_at).toISOString() };
}

export async function searchUsers(deps: Pick<AccountsDeps, 'db'>, query: { q?: string | undefined; limit: number; after?: number | undefined }) {
  const rows = await searchUsersPage(deps.db, query);
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  return { data: rows.map(adminUserView), next_cursor: more ? String(rows[rows.length - 1]!.id) : null };
}

export async function findUserOr404(deps: Pick<AccountsDeps, 'db'>, id: number): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user) throw apiNotFound('User');
  return user;
}

/** With a password: ready to sign in. Without: a one-time link to set it is mailed and returned. */
export async function adminCreateUser(deps: AccountsDeps, input: { email: string; name?: string | undefined; role?: 'user' | 'admin' | undefined; password?: string | undefined }): Promise<{ user: UserRow; set_password_url: string | null }> {
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(deps.db, email)) throw conflict('A user with this e-mail address exists.', 'email', 'email_in_use');
  const now = Date.now();
  const user = await createUser(deps.db, `user_${randomBytes(6).toString('hex')}`, {
    email,
    role: input.role ?? 'user',
    email_verified_at: now,
    password_hash: input.password ? await hashPassword(input.password) : null,
    settings_json: JSON.stringify(input.name ? { profile: { name: input.name } } : {}),
  });
  let link: string | null = null;
  if (!input.password) {
    const token = await issueEmailToken(deps.db, user.id, 'set_password');
    link = `${deps.publicUrl()}/reset-password?token=${token}`;
    await deps.outbox.enqueue(setPasswordMail(email, link), link);
  }
  await deps.announce({ reason: 'user created', userIds: [user.id] });
  return { user, set_password_url: link };
}

/** Whether the change takes away an active administrator (a demotion, or disabling one). */
const losesAdministrator = (before: UserRow, changes: { status?: UserRow['status'] | undefined; role?: UserRow['role'] | undefined }) =>
  before.role === 'admin' && before.status === 'active' && ((changes.role !== undefined && changes.role !== 'admin') || (changes.status !== undefined && changes.status !== 'active'));

export async function adminUpdateUser(deps: AccountsDeps, id: number, changes: { status?: UserRow['status'] | undefined; role?: UserRow['role'] | undefined; rpm_limit?: number | null | undefined; tpm_limit?: number | null | undefined }) {
  const before = await findUserOr404(deps, id);
  const set: Partial<UserRow> = { updated_at: Date.now() };
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.role !== undefined) set.role = changes.role;
  if (changes.rpm_limit !== undefined) set.rpm_limit = changes.rpm_limit;
  if (changes.tpm_limit !== undefined) set.tpm_limit = changes.tpm_limit;
  await updateUserKeepingAnAdmin(deps.db, id, set, losesAdministrator(before, changes), () =>
    conflict('This is the last active administrator: make another user an administrator first, or nobody could administer the gateway.', changes.role !== undefined && changes.role !== 'admin' ? 'role' : 'status', 'last_admin'));
  if ((changes.role !== undefined && changes.role !== before.role) || (changes.status !== undefined && changes.status !== before.status)) {
    await endUserSessions(deps.db, id);
  }
  await deps.announce({ reason: 'user changed', userIds: [id] });
  return { before, after: await findUserOr404(deps, id) };
}

export async function adminResetTwoFactor(deps: AccountsDeps, id: number): Promise<UserRow> {
  const before = await findUserOr404(deps, id);
  await clearTwoFactor(deps, id);
  await endUserSessions(deps.db, id);
  return before;
}
