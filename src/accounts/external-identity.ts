// Turns a person vouched for by an identity provider into an account of the gateway. The rules, in order:
// 1. an identity already linked (provider + subject) signs in its account, whatever its e-mail says now;
// 2. else an account with the same address is linked only when the provider says the address is verified;
//    if that account had never verified its address, whoever created it did not prove they own it, so its
//    password and sessions are dropped (no pre-registered account can be taken over this way);
// 3. else a new account is created, under the registration settings, only for a verified address.
// A domain that must sign in with named providers (signin-domains.ts) is refused to any other, in each case.
// An unverified address never links to, nor creates, anything.
import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import { normalizeEmail } from './accounts-deps.ts';
import { checkRegistrationOpen } from './registration.ts';
import { endUserSessions } from './sessions.ts';
import { createUser, findUserByEmail, findUserById, verifyEmailDroppingPassword } from '../db/repositories/users.ts';
import { findLinkedIdentity, linkIdentity, touchLinkedIdentity } from '../db/repositories/user-identities.ts';
import type { UserRow } from '../db/schema.ts';
import type { IdentityProviderRow } from './identity-provider-store.ts';
import { forbidden } from '../gateway-errors.ts';
import { refuseProviderForDomain } from './signin-domains.ts';

export interface ExternalPerson {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export async function accountForExternalPerson(deps: AccountsDeps, provider: IdentityProviderRow, person: ExternalPerson, now = Date.now()): Promise<UserRow> {
  const linked = await findLinkedIdentity(deps.db, provider.id, person.subject);
  if (linked) {
    const user = await findUserById(deps.db, linked.user_id);
    if (user) {
      await refuseProviderForDomain(deps, provider.slug, user.email);
      await touchLinkedIdentity(deps.db, linked.id, person.email, now);
      return user;
    }
  }
  if (!person.email || !person.emailVerified) {
    throw forbidden(`${provider.name} did not confirm that this e-mail address is yours, so it cannot be used to sign in here. Verify it there first.`, 'email_not_verified');
  }
  const email = normalizeEmail(person.email);
  // Before anything is linked or created: a domain bound to other providers is not this one's to vouch for.
  await refuseProviderForDomain(deps, provider.slug, email);
  let user = await findUserByEmail(deps.db, email);
  if (user && user.email_verified_at === null) {
    await verifyEmailDroppingPassword(deps.db, user.id, now);
    await endUserSessions(deps.db, user.id);
    user = await findUserById(deps.db, user.id);
  }
  if (!user) {
    await checkRegistrationOpen(deps, email);
    user = await createUser(deps.db, `user_${randomBytes(6).toString('hex')}`, {
      email,
      email_verified_at: now,
      settings_json: JSON.stringify(person.name ? { profile: { name: person.name.slice(0, 100) } } : {}),
    }, now);
  }
  await linkIdentity(deps.db, user!.id, provider.id, person.subject, email, now);
  return user!;
}
