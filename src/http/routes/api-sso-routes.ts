// /api/auth/sso: sign-in with an identity provider. The browser navigates (not fetch) to .../start, is
// redirected to the provider and comes back to .../callback, which redirects to the dashboard: to `next`
// when signed in, to /login?step=totp when the account has two-factor on, or to /login?signin_error=<code>.
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { type ApiRouter, lazyAnswer } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { findIdentityProviderBySlug, listIdentityProviders } from '../../accounts/identity-provider-store.ts';
import { finishProviderSignIn, startProviderSignIn } from '../../accounts/identity-provider-sign-in.ts';
import { safeReturnPath, storeSigninFlow, takeSigninFlow } from '../../accounts/signin-flows.ts';
import { accountForExternalPerson } from '../../accounts/external-identity.ts';
import { createSession, PENDING_TOTP_MS } from '../../accounts/sessions.ts';
import { GatewayError } from '../../gateway-errors.ts';
import { setSessionCookie } from '../session-cookie.ts';
import { appendSetCookie, clearedSigninCookie, readSigninCookie, signinCookie } from '../signin-cookie.ts';
import { clientOf, secureCookies } from './api-auth-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const ssoAnswers = () => import('./answers/sso-answers.ts');

const slugParams = z.object({ slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a provider slug') });

export function apiSsoRoutes(api: ApiRouter, deps: AccountsDeps): void {
  const tag = 'Sign-up and sign-in';
  const toLogin = (reply: FastifyReply, code: string) => reply.redirect(`/login?signin_error=${encodeURIComponent(code)}`, 303);

  api.route({
    method: 'GET', url: '/api/auth/providers', tag, access: 'public', summary: 'The identity providers to sign in with (for the sign-in page).',
    answer: lazyAnswer(ssoAnswers, (m) => m.providersAnswer),
    handler: async () => ({ data: (await listIdentityProviders(deps, true)).map((row) => ({ slug: row.slug, name: row.name, kind: row.kind, start_url: `/api/auth/sso/${row.slug}/start` })) }),
  });
  api.route({
    method: 'GET', url: '/api/auth/sso/:slug/start', tag, access: 'public', params: slugParams,
    query: z.object({ next: z.string().max(1000).optional() }),
    summary: 'Start signing in with an identity provider: a redirect to it (open in the browser, not with fetch). `next` is a path on this site to return to.',
    redirects: true,
    returns: '303 to the provider, with the gw_signin cookie that ties the return to this browser.',
    handler: async ({ params, query, reply }) => {
      const provider = await findIdentityProviderBySlug(deps, params.slug);
      if (!provider || provider.enabled !== 1) return toLogin(reply, 'unknown_provider');
      let started;
      try {
        started = await startProviderSignIn(deps, provider, safeReturnPath(query.next));
      } catch (error) {
        deps.logger.warn({ err: error, provider: provider.slug }, 'identity provider unreachable (discovery)');
        return toLogin(reply, 'provider_unavailable');
      }
      const browserValue = await storeSigninFlow(deps, provider.id, started.flow);
      appendSetCookie(reply, signinCookie(browserValue, secureCookies(deps)));
      return reply.redirect(started.url, 303);
    },
  });
  api.route({
    method: 'GET', url: '/api/auth/sso/:slug/callback', tag, access: 'public', params: slugParams,
    query: z.object({ code: z.string().max(4096).optional(), state: z.string().max(1024).optional() }).passthrough(),
    summary: "The identity provider's return (its redirect URI): signs in, then redirects to the dashboard.",
    redirects: true,
    returns: '303 to the `next` path, to /login?step=totp, or to /login?signin_error=<code>.',
    handler: async ({ params, request, reply }) => {
      appendSetCookie(reply, clearedSigninCookie(secureCookies(deps)));
      const provider = await findIdentityProviderBySlug(deps, params.slug);
      if (!provider || provider.enabled !== 1) return toLogin(reply, 'unknown_provider');
      const flow = await takeSigninFlow(deps, provider.id, readSigninCookie(request));
      if (!flow) return toLogin(reply, 'signin_expired');
      let user;
      try {
        const person = await finishProviderSignIn(deps, provider, flow, new URL(request.url, `${deps.publicUrl()}/`));
        user = await accountForExternalPerson(deps, provider, person);
      } catch (error) {
        if (error instanceof GatewayError) return toLogin(reply, String(error.code ?? 'signin_refused'));
        deps.logger.warn({ err: error, provider: provider.slug }, 'identity provider sign-in refused');
        return toLogin(reply, 'provider_error');
      }
      if (user.status !== 'active') return toLogin(reply, 'account_disabled');
      const client = clientOf(request);
      if (user.totp_secret_encrypted) {
        const pending = await createSession(deps.db, user.id, 'pending_totp', client);
        setSessionCookie(reply, pending.token, secureCookies(deps), PENDING_TOTP_MS);
        appendSetCookie(reply, clearedSigninCookie(secureCookies(deps)));
        return reply.redirect(`/login?step=totp&next=${encodeURIComponent(flow.next)}`, 303);
      }
      const session = await createSession(deps.db, user.id, 'active', client);
      setSessionCookie(reply, session.token, secureCookies(deps), session.row.expires_at - Date.now());
      appendSetCookie(reply, clearedSigninCookie(secureCookies(deps)));
      return reply.redirect(flow.next, 303);
    },
  });
}
