// E-mail domains whose people must sign in through an identity provider: password (and passkey) sign-in is
// refused for them, so switching someone off at the provider switches them off here. The answer depends
// only on the domain, never on whether an account exists, so it tells nothing about accounts.
// `providers` names the identity providers that vouch for those domains (empty: any). Without it, a person
// switched off at the organisation's provider still got in through another one that had once verified the
// same address (a GitHub account keeps a former employer's address verified for years).
import type { AccountsDeps } from './accounts-deps.ts';
import { getSetting, setSetting } from '../db/repositories/settings.ts';
import { signinDomainsSettingColumn } from '../db/json-columns.ts';
import { forbidden } from '../gateway-errors.ts';

const SIGNIN_DOMAINS_SETTING = 'identity_provider_domains';

interface SigninDomainsSetting {
  /** Lower-case domains (example.com) that must sign in with an identity provider. */
  domains: string[];
  /** Slugs of the identity providers that may sign those domains' people in; empty: any enabled one. */
  providers: string[];
}

export async function signinDomainsSetting(deps: Pick<AccountsDeps, 'db'>): Promise<SigninDomainsSetting> {
  const stored = await getSetting(deps.db, SIGNIN_DOMAINS_SETTING, signinDomainsSettingColumn);
  return { domains: stored?.domains ?? [], providers: stored?.providers ?? [] };
}

/** `providers` undefined keeps the providers set before (the dashboard's form sends the domains alone). */
export async function setSigninDomains(deps: Pick<AccountsDeps, 'db'>, domains: string[], providers?: string[]): Promise<SigninDomainsSetting> {
  const value = {
    domains: [...new Set(domains.map((domain) => domain.trim().toLowerCase()).filter(Boolean))].sort(),
    providers: providers === undefined ? (await signinDomainsSetting(deps)).providers : [...new Set(providers)].sort(),
  };
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

/**
 * Throws 403 identity_provider_required when the address's domain must sign in with one of the listed
 * providers and this provider is not one of them. Checked on the account's address (an identity already
 * linked) and on the address the provider vouches for (before linking or creating anything).
 */
export async function refuseProviderForDomain(deps: Pick<AccountsDeps, 'db'>, providerSlug: string, email: string | null): Promise<void> {
  if (!email) return;
  const { domains, providers } = await signinDomainsSetting(deps);
  if (providers.length === 0 || providers.includes(providerSlug) || !domains.includes(domainOf(email))) return;
  throw forbidden(`Addresses at ${domainOf(email)} sign in with their organisation's identity provider, not this one: use its button on the sign-in page.`, 'identity_provider_required');
}
