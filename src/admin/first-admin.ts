// The first administrator without a config file: `npm run admin -- create --email …` makes (or promotes)
// the user and returns a one-time link to set the password (24 hours), printed by src/admin-cli.ts.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { normalizeEmail } from '../accounts/accounts-deps.ts';
import { issueEmailToken } from '../accounts/email-tokens.ts';
import { createUser, findUserByEmail, promoteToActiveAdmin } from '../db/repositories/users.ts';
import { recordAudit } from './audit-log.ts';

export async function createAdminWithLink(db: Db, emailInput: string, publicUrl: string, name?: string): Promise<{ userId: number; created: boolean; link: string }> {
  const email = normalizeEmail(emailInput);
  const now = Date.now();
  let user = await findUserByEmail(db, email);
  const created = !user;
  if (!user) {
    user = await createUser(db, `user_${randomBytes(6).toString('hex')}`, {
      email, role: 'admin', email_verified_at: now, settings_json: JSON.stringify(name ? { profile: { name } } : {}),
    });
  } else {
    await promoteToActiveAdmin(db, user.id, now);
  }
  const token = await issueEmailToken(db, user.id, 'set_password');
  await recordAudit(db, { userId: null, name: 'cli' }, created ? 'user.create_admin' : 'user.promote_admin', `user:${user.id}`, created ? null : { role: user.role }, { role: 'admin', email });
  return { userId: user.id, created, link: `${publicUrl.replace(/\/+$/, '')}/reset-password?token=${token}` };
}
