// /api/me: the signed-in user's profile, preferences, password, two-factor and sessions.
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { type ApiRouter, lazyAnswer } from '../api-route.ts';
import type { ApiCaller } from '../api-caller.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { csrfTokenFor, endSession, listUserSessions, rotateSession } from '../../accounts/sessions.ts';
import { settingsView, userView, preferencesOf } from '../../accounts/user-view.ts';
import { savePreferences, updateProfile } from '../../accounts/profile.ts';
import { changePassword } from '../../accounts/passwords-flow.ts';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup } from '../../accounts/two-factor.ts';
import { apiNotFound } from '../../gateway-errors.ts';
import { findUserSessionId } from '../../db/repositories/sessions.ts';
import { setSessionCookie } from '../session-cookie.ts';
import { emailField, passwordField, secureCookies } from './api-auth-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const meAnswers = () => import('./answers/me-answers.ts');

const codeBody = z.object({ code: z.string().trim().min(6).max(32) }).strict();
const sectionName = z.string().min(1).max(40).regex(/^[a-z0-9_-]+$/, 'lower-case letters, digits, - and _');

export function apiMeRoutes(api: ApiRouter, deps: AccountsDeps): void {
  const tag = 'My account';
  /** A privilege change: the session gets a new token, and the page a new CSRF token. */
  const rotate = async (caller: ApiCaller, reply: FastifyReply): Promise<{ csrf_token?: string }> => {
    if (!caller.session) return {};
    const next = await rotateSession(deps.db, caller.session);
    setSessionCookie(reply, next.token, secureCookies(deps), next.row.expires_at - Date.now());
    return { csrf_token: csrfTokenFor(next.token) };
  };

  api.route({
    method: 'GET', url: '/api/me', tag, access: 'signed_in', allowKeys: true, summary: 'Who I am, my settings, and the CSRF token for state-changing requests.',
    answer: lazyAnswer(meAnswers, (m) => m.meAnswer),
    handler: async ({ caller }) => ({
      user: userView(caller.user),
      settings: settingsView(caller.user),
      ...(caller.sessionToken ? { csrf_token: csrfTokenFor(caller.sessionToken) } : {}),
    }),
  });
  api.route({
    method: 'PATCH', url: '/api/me', tag, access: 'verified', summary: 'Change my name, or my e-mail address (takes effect once the link sent to the new address is followed).',
    body: z.object({ name: z.string().trim().min(1).max(100).optional(), email: emailField.optional() }).strict(),
    answer: lazyAnswer(meAnswers, (m) => m.profileAnswer),
    handler: async ({ caller, body }) => {
      const result = await updateProfile(deps, caller.user, body);
      return { user: userView(caller.user), ...result };
    },
  });
  api.route({
    method: 'PUT', url: '/api/me/settings', tag, access: 'verified', summary: 'Notifications and the sidebar layout (order and hidden sections).',
    body: z.object({
      notifications: z.object({
        low_balance_usd: z.number().finite().nonnegative().max(1_000_000).multipleOf(0.01, 'must be whole cents').nullable().optional(),
        key_expiry_days: z.number().int().min(1).max(365).nullable().optional(),
      }).strict().optional(),
      sidebar: z.object({ order: z.array(sectionName).max(50), hidden: z.array(sectionName).max(50) }).strict().optional(),
    }).strict(),
    answer: lazyAnswer(meAnswers, (m) => m.settingsSavedAnswer),
    handler: async ({ caller, body }) => {
      const current = preferencesOf(caller.user);
      await savePreferences(deps, caller.user, {
        ...current,
        ...(body.notifications ? { notifications: { ...current.notifications, ...body.notifications } } : {}),
        ...(body.sidebar ? { sidebar: body.sidebar } : {}),
      });
      return { settings: settingsView(caller.user) };
    },
  });
  api.route({
    method: 'POST', url: '/api/me/password', tag, access: 'verified', summary: 'Change my password (needs the current one); my other sessions end.',
    body: z.object({ current_password: z.string().min(1).max(1024), new_password: passwordField }).strict(),
    answer: lazyAnswer(meAnswers, (m) => m.passwordChangedAnswer),
    handler: async ({ caller, body, reply }) => {
      await changePassword(deps, caller.user, body.current_password, body.new_password, caller.session?.id);
      return { status: 'password_changed' as const, ...await rotate(caller, reply) };
    },
  });
  api.route({
    method: 'POST', url: '/api/me/2fa/setup', tag, access: 'verified', summary: 'Start two-factor set-up: the secret, the otpauth:// URI and a QR code (data URL).',
    answer: lazyAnswer(meAnswers, (m) => m.twoFactorSetupAnswer),
    handler: async ({ caller }) => startTwoFactorSetup(deps, caller.user),
  });
  api.route({
    method: 'POST', url: '/api/me/2fa/enable', tag, access: 'verified', summary: 'Turn two-factor on with a code; answers 10 single-use recovery codes, once.',
    body: codeBody,
    answer: lazyAnswer(meAnswers, (m) => m.twoFactorEnabledAnswer),
    handler: async ({ caller, body, reply }) => ({ recovery_codes: await enableTwoFactor(deps, caller.user, body.code), ...await rotate(caller, reply) }),
  });
  api.route({
    method: 'POST', url: '/api/me/2fa/disable', tag, access: 'verified', summary: 'Turn two-factor off (needs a code or a recovery code).',
    body: codeBody,
    answer: lazyAnswer(meAnswers, (m) => m.twoFactorDisabledAnswer),
    handler: async ({ caller, body, reply }) => {
      await disableTwoFactor(deps, caller.user, body.code);
      return { status: 'two_factor_disabled' as const, ...await rotate(caller, reply) };
    },
  });
  api.route({
    method: 'GET', url: '/api/me/sessions', tag, access: 'signed_in', summary: 'My sessions (this one is marked current).',
    answer: lazyAnswer(meAnswers, (m) => m.sessionsAnswer),
    handler: async ({ caller }) => ({
      data: (await listUserSessions(deps.db, caller.user.id)).map((row) => ({
        id: row.id, current: row.id === caller.session?.id, ip: row.ip, user_agent: row.user_agent,
        created_at: new Date(row.created_at).toISOString(), last_seen_at: new Date(row.last_seen_at).toISOString(), expires_at: new Date(row.expires_at).toISOString(),
      })),
    }),
  });
  api.route({
    method: 'DELETE', url: '/api/me/sessions/:id', tag, access: 'signed_in', summary: 'End one of my sessions.',
    params: z.object({ id: z.string().min(1).max(64) }),
    answer: lazyAnswer(meAnswers, (m) => m.sessionEndedAnswer),
    handler: async ({ caller, params }) => {
      const sessionId = await findUserSessionId(deps.db, caller.user.id, params.id);
      if (!sessionId) throw apiNotFound('Session');
      await endSession(deps.db, sessionId);
      return { id: sessionId, ended: true as const };
    },
  });
}
