// Passkeys: sign in with one (/api/auth/passkey), and manage one's own (/api/me/passkeys). Registration
// and removal need a verified, signed-in session and its CSRF token, as the other security settings do;
// registration also a recent sign-in: a passkey signs in without the password and without the TOTP code,
// so a session taken over (a stolen cookie) must not turn into a credential of its own that outlives it.
import { z } from 'zod';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { listPasskeys, passkeyRegistrationOptions, passkeySignInOptions, passkeyView, registerPasskey, renamePasskey, signInWithPasskey } from '../../accounts/passkeys.ts';
import { createSession } from '../../accounts/sessions.ts';
import { refuseWhenProviderRequired } from '../../accounts/signin-domains.ts';
import { linkedIdentitiesView, removePasskeyUnlessLast, unlinkIdentity } from '../../accounts/sign-in-ways.ts';
import { forbidden } from '../../gateway-errors.ts';
import { clientOf, startSession } from './api-auth-routes.ts';
import type { ApiCaller } from '../api-caller.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const authAnswers = () => import('./answers/auth-answers.ts');
const passkeyAnswers = () => import('./answers/passkey-answers.ts');

/** How recent the session's sign-in must be to add a passkey. */
const PASSKEY_SIGN_IN_WINDOW_MS = 15 * 60_000;

function requireRecentSignIn(caller: ApiCaller, now = Date.now()): void {
  if (caller.session && Number(caller.session.created_at) >= now - PASSKEY_SIGN_IN_WINDOW_MS) return;
  throw forbidden('To add a passkey, sign out and sign in again first: a passkey can be added within 15 minutes of signing in.', 'recent_sign_in_required');
}

/** A WebAuthn answer as @simplewebauthn/browser produces it; the verifier checks the rest. */
const credentialSchema = z.object({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: z.string().min(1).max(20_000) }).passthrough(),
}).passthrough();
const passkeyName = z.string().trim().min(1).max(64);
/** A WebAuthn answer is a few KB (an attestation with its certificates included): a stranger may not make the gateway parse 20 MB. */
const PASSKEY_BODY_LIMIT = 128 * 1024;

export function apiPasskeyRoutes(api: ApiRouter, deps: AccountsDeps): void {
  const auth = 'Sign-up and sign-in';
  const me = 'My account';

  api.route({
    method: 'POST', url: '/api/auth/passkey/options', tag: auth, access: 'public', bodyLimit: PASSKEY_BODY_LIMIT,
    summary: 'Options for signing in with a passkey (navigator.credentials.get); the challenge is good for one answer within 5 minutes.',
    answer: lazyAnswer(passkeyAnswers, (m) => m.passkeySignInOptionsAnswer),
    handler: async () => passkeySignInOptions(deps),
  });
  api.route({
    method: 'POST', url: '/api/auth/passkey', tag: auth, access: 'public', bodyLimit: PASSKEY_BODY_LIMIT, body: z.object({ response: credentialSchema }).strict(),
    summary: 'Sign in with a passkey: the answer of navigator.credentials.get. No two-factor code follows (the passkey verified its user).',
    answer: lazyAnswer(authAnswers, (m) => m.signedInAnswer),
    handler: async ({ body, request, reply }) => {
      const user = await signInWithPasskey(deps, body.response);
      if (user.status !== 'active') throw forbidden('This account is disabled.', 'account_disabled');
      await refuseWhenProviderRequired(deps, user.email);
      return startSession(deps, reply, await createSession(deps.db, user.id, 'active', clientOf(request)), user);
    },
  });

  api.route({
    method: 'GET', url: '/api/me/passkeys', tag: me, access: 'signed_in', summary: 'My passkeys.',
    answer: lazyAnswer(passkeyAnswers, (m) => m.passkeysAnswer),
    handler: async ({ caller }) => ({ data: (await listPasskeys(deps, caller.user.id)).map(passkeyView) }),
  });
  api.route({
    method: 'POST', url: '/api/me/passkeys/options', tag: me, access: 'verified', bodyLimit: PASSKEY_BODY_LIMIT,
    summary: 'Options for registering a passkey (navigator.credentials.create); good for one answer within 5 minutes. Within 15 minutes of signing in (403 recent_sign_in_required after).',
    answer: lazyAnswer(passkeyAnswers, (m) => m.passkeyRegistrationOptionsAnswer),
    handler: async ({ caller }) => {
      requireRecentSignIn(caller);
      return passkeyRegistrationOptions(deps, caller.user);
    },
  });
  api.route({
    method: 'POST', url: '/api/me/passkeys', tag: me, access: 'verified', status: 201, bodyLimit: PASSKEY_BODY_LIMIT,
    body: z.object({ name: passkeyName, response: credentialSchema }).strict(),
    summary: 'Register a passkey: a name and the answer of navigator.credentials.create. Within 15 minutes of signing in (403 recent_sign_in_required after).',
    answer: lazyAnswer(passkeyAnswers, (m) => m.passkeyAnswer),
    handler: async ({ caller, body }) => {
      requireRecentSignIn(caller);
      return passkeyView(await registerPasskey(deps, caller.user, body.name, body.response));
    },
  });
  api.route({
    method: 'PATCH', url: '/api/me/passkeys/:id', tag: me, access: 'verified', params: idParams, body: z.object({ name: passkeyName }).strict(),
    summary: 'Rename one of my passkeys.',
    answer: lazyAnswer(passkeyAnswers, (m) => m.passkeyAnswer),
    handler: async ({ caller, params, body }) => passkeyView(await renamePasskey(deps, caller.user.id, params.id, body.name)),
  });
  api.route({
    method: 'DELETE', url: '/api/me/passkeys/:id', tag: me, access: 'verified', params: idParams,
    summary: 'Remove one of my passkeys; it can no longer sign in. Never the last way to sign in (409 last_sign_in_method).',
    answer: lazyAnswer(authAnswers, (m) => m.statusAnswer('removed')),
    handler: async ({ caller, params }) => {
      await removePasskeyUnlessLast(deps, caller.user, params.id);
      return { status: 'removed' as const };
    },
  });
  api.route({
    method: 'GET', url: '/api/me/identities', tag: me, access: 'signed_in', summary: 'The identities at identity providers linked to my account.',
    answer: lazyAnswer(passkeyAnswers, (m) => m.identitiesAnswer),
    handler: async ({ caller }) => ({ data: await linkedIdentitiesView(deps, caller.user.id) }),
  });
  api.route({
    method: 'DELETE', url: '/api/me/identities/:id', tag: me, access: 'verified', params: idParams,
    summary: 'Unlink an identity: it no longer signs me in. Never the last way to sign in (409 last_sign_in_method).',
    answer: lazyAnswer(authAnswers, (m) => m.statusAnswer('unlinked')),
    handler: async ({ caller, params }) => {
      await unlinkIdentity(deps, caller.user, params.id);
      return { status: 'unlinked' as const };
    },
  });
}
