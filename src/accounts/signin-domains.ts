// E-mail domains whose people must sign in through an identity provider: password (and passkey) sign-in is
// refused for them, so switching someone off at the provider switches them off here. The answer depends
// only on the domain, never on whether an account exists, so it tells nothing about accounts.
import type { AccountsDeps } from './accounts-deps.ts';
import { getSetting, setSetting } from '../db/repositories/settings.ts';
import { forbidden } from '../gateway-errors.ts';

const SIGNIN_DOMAINS_SETTING = 'identity_provider_domains';

interface SigninDomainsSetting {
  /** Lower-case domains (example.com) that must sign in with an identity provider. */
  domains: string[];
}

export async function signinDomainsSetting(deps: Pick<AccountsDeps, 'db'>): Promise<SigninDomainsSetting> {
  return (await getSetting<SigninDomainsSetting>(deps.db, SIGNIN_DOMAINS_SETTING)) ?? { domains: [] };
}

export async function setSigninDomains(deps: Pick<AccountsDeps, 'db'>, domains: string[]): Promise<SigninDomainsSetting> {
  const value = { domains: [...new Set(domains.map((domain) => domain.trim().toLowerCase()).filter(Boolean))].sort() };
  await setSetting(deps.db, SIGNIN_DOMAINS_SETTING, value);
  return value;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Whether the address's domain must sign in with an identity provider. */
export async function providerRequiredFor(deps: Pick<AccountsDeps, 'db'>, email: string | null): Promise<boolean> {
  if (!email) return false;
  return (await signinDomainsSetting(deps)).domains.includes(domainOf(email));
}

/** Throws 403 identity_provider_required when the address's domain must use an identity provider. */
export async function refuseWhenProviderRequired(deps: Pick<AccountsDeps, 'db'>, email: string | null): Promise<void> {
  if (email && await providerRequiredFor(deps, email)) {
    throw forbidden(`Addresses at ${domainOf(email)} sign in with their organisation's identity provider: use its button on the sign-in page.`, 'identity_provider_required');
  }
}
