// What /api/admin/identity-providers and /api/admin/signin-domains answer (admin-identity-routes.ts): a
// provider's client secret only as set or not.
import { z } from 'zod';
import { listOf, rowId } from './common-answers.ts';
import { isoTime } from './admin-answers.ts';

/** An identity provider (src/accounts/identity-provider-store.ts identityProviderView) with the redirect URI to register at it. */
export const identityProviderAnswer = z.object({
  id: rowId,
  slug: z.string(),
  kind: z.enum(['oidc', 'github']),
  name: z.string(),
  /** The OpenID Connect issuer; null for GitHub. */
  issuer: z.string().nullable(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  /** Space-separated. */
  scopes: z.string(),
  enabled: z.boolean(),
  /** Declared in the config file, or added by an administrator. */
  source: z.enum(['config', 'admin']),
  created_at: isoTime,
  redirect_uri: z.string(),
});
export const identityProvidersAnswer = listOf(identityProviderAnswer);
export const identityProviderDeletedAnswer = z.object({ status: z.literal('deleted') });

/** The e-mail domains that must sign in with an identity provider, and the providers (slugs) that vouch for them (empty: any). */
export const signinDomainsAnswer = z.object({ domains: z.array(z.string()), providers: z.array(z.string()) });
