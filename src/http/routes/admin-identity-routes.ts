// /api/admin/identity-providers and /api/admin/signin-domains: the identity providers people sign in
// with, and the e-mail domains that must use one. Client secrets go in, never out; every change is audited.
import { z } from 'zod';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { createIdentityProvider, deleteIdentityProvider, identityProviderView, listIdentityProviders, updateIdentityProvider } from '../../accounts/identity-provider-store.ts';
import { redirectUriFor } from '../../accounts/identity-provider-sign-in.ts';
import { setSigninDomains, signinDomainsSetting } from '../../accounts/signin-domains.ts';
import { recordAudit } from '../../admin/audit-log.ts';
import { invalidRequest } from '../../gateway-errors.ts';
import { actorOf } from './admin-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const adminIdentityAnswers = () => import('./answers/admin-identity-answers.ts');

const httpUrl = z.url({ protocol: /^https?$/ }).max(500);
const providerFields = {
  name: z.string().trim().min(1).max(100),
  issuer: httpUrl.optional(),
  client_id: z.string().trim().min(1).max(500),
  client_secret: z.string().min(1).max(2000),
  scopes: z.string().trim().min(1).max(500).regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be scopes separated by single spaces').optional(),
  enabled: z.boolean().optional(),
};
const identityProviderSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes'),
  kind: z.enum(['oidc', 'github']),
  ...providerFields,
}).strict().refine((value) => value.kind !== 'oidc' || value.issuer !== undefined, { message: 'is required for OpenID Connect', path: ['issuer'] });
const providerChanges = z.object(providerFields).partial().strict();
const domainsSchema = z.object({
  domains: z.array(z.string().trim().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/, 'must be a domain such as example.com')).max(200),
  /** The providers (slugs) that vouch for those domains; empty: any. Left out: as before. */
  providers: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a provider slug')).max(50).optional(),
}).strict();

export function adminIdentityRoutes(api: ApiRouter, accounts: AccountsDeps): void {
  const admin = { tag: 'Administration', access: 'admin' as const, allowKeys: true };
  const view = (row: Parameters<typeof identityProviderView>[0]) => ({ ...identityProviderView(row), redirect_uri: redirectUriFor(accounts, row) });

  api.route({
    ...admin, method: 'GET', url: '/api/admin/identity-providers', answer: lazyAnswer(adminIdentityAnswers, (m) => m.identityProvidersAnswer), summary: 'Identity providers for sign-in, with the redirect URI to register at each.',
    handler: async () => ({ data: (await listIdentityProviders(accounts)).map(view) }),
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/identity-providers', answer: lazyAnswer(adminIdentityAnswers, (m) => m.identityProviderAnswer), status: 201, body: identityProviderSchema,
    summary: 'Add an identity provider: OpenID Connect (by discovery from its issuer) or GitHub. The client secret is stored encrypted and never shown again.',
    handler: async ({ caller, body }) => {
      const row = await createIdentityProvider(accounts, body);
      await recordAudit(accounts.db, actorOf(caller), 'identity_provider.create', `identity_provider:${row.id}`, null, identityProviderView(row));
      return view(row);
    },
  });
  api.route({
    ...admin, method: 'PATCH', url: '/api/admin/identity-providers/:id', answer: lazyAnswer(adminIdentityAnswers, (m) => m.identityProviderAnswer), params: idParams, body: providerChanges,
    summary: 'Change an identity provider; a client secret left out stays as it is.',
    handler: async ({ caller, params, body }) => {
      const row = await updateIdentityProvider(accounts, params.id, body);
      await recordAudit(accounts.db, actorOf(caller), 'identity_provider.update', `identity_provider:${row.id}`, null, identityProviderView(row));
      return view(row);
    },
  });
  api.route({
    ...admin, method: 'DELETE', url: '/api/admin/identity-providers/:id', answer: lazyAnswer(adminIdentityAnswers, (m) => m.identityProviderDeletedAnswer), params: idParams,
    summary: 'Remove an identity provider; the accounts linked to it stay, unlinked.',
    handler: async ({ caller, params }) => {
      await deleteIdentityProvider(accounts, params.id);
      await recordAudit(accounts.db, actorOf(caller), 'identity_provider.delete', `identity_provider:${params.id}`, null, null);
      return { status: 'deleted' as const };
    },
  });
  api.route({
    ...admin, method: 'GET', url: '/api/admin/signin-domains', answer: lazyAnswer(adminIdentityAnswers, (m) => m.signinDomainsAnswer), summary: 'E-mail domains that must sign in with an identity provider.',
    handler: async () => signinDomainsSetting(accounts),
  });
  api.route({
    ...admin, method: 'PUT', url: '/api/admin/signin-domains', answer: lazyAnswer(adminIdentityAnswers, (m) => m.signinDomainsAnswer), body: domainsSchema,
    summary: 'Set the e-mail domains that must sign in with an identity provider (password and passkey sign-in are refused for them), and optionally which providers (slugs) vouch for them: another provider is then refused for those addresses too.',
    handler: async ({ caller, body }) => {
      if (body.providers) {
        const known = new Set((await listIdentityProviders(accounts)).map((row) => row.slug));
        const unknown = body.providers.find((slug) => !known.has(slug));
        if (unknown !== undefined) throw invalidRequest(`Invalid value for 'providers': there is no identity provider '${unknown}'.`, 'providers', 'invalid_value');
      }
      const before = await signinDomainsSetting(accounts);
      const after = await setSigninDomains(accounts, body.domains, body.providers);
      await recordAudit(accounts.db, actorOf(caller), 'signin_domains.update', 'setting:identity_provider_domains', before, after);
      return after;
    },
  });
}
