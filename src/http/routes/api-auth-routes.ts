// /api/auth: sign-up, e-mail verification, sign-in (with the two-factor step), sign-out, password reset.
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApiRouter, lazyAnswer } from '../api-route.ts';
import type { AccountsDeps, ClientInfo } from '../../accounts/accounts-deps.ts';
import { checkRegistrationOpen, resendVerification, runBehind, signUp, verifyEmail } from '../../accounts/registration.ts';
import { signIn, signInSecondFactor, signOut } from '../../accounts/sign-in.ts';
import { confirmPasswordToken, requestPasswordReset } from '../../accounts/passwords-flow.ts';
import { csrfTokenFor, type NewSession } from '../../accounts/sessions.ts';
import { userView } from '../../accounts/user-view.ts';
import { gatewayError } from '../../gateway-errors.ts';
import { renderOpenAIError } from '../openai-error.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../session-cookie.ts';
import type { UserRow } from '../../db/schema.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const authAnswers = () => import('./answers/auth-answers.ts');

export const emailField = z.email().max(254);
export const passwordField = z.string().min(10, 'must be at least 10 characters').max(1024);
const tokenField = z.string().min(20).max(200);

export const clientOf = (request: FastifyRequest): ClientInfo => ({ ip: request.ip ?? null, userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null });
export const secureCookies = (deps: AccountsDeps) => deps.publicUrl().startsWith('https:');

/** Sets the session cookie and answers what sign-in answers: the user and the CSRF token. */
export function startSession(deps: AccountsDeps, reply: FastifyReply, session: NewSession, user: UserRow) {
  setSessionCookie(reply, session.token, secureCookies(deps), session.row.expires_at - Date.now());
  return { user: userView(user), csrf_token: csrfTokenFor(session.token) };
}

export function apiAuthRoutes(api: ApiRouter, deps: AccountsDeps): void {
  const tag = 'Sign-up and sign-in';
  const accepted = { status: 'ok', message: 'If the address can receive it, a mail is on its way.' } as const;

  api.route({
    method: 'POST', url: '/api/auth/signup', tag, access: 'public', status: 202,
    summary: 'Sign up; a verification link is mailed. The answer is the same whether or not the address already has an account.',
    body: z.object({ email: emailField, password: passwordField, name: z.string().trim().min(1).max(100).optional() }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.mailAcceptedAnswer),
    handler: async ({ body }) => {
      await checkRegistrationOpen(deps, body.email);
      // Hashing, the account and the mail happen behind the answer: known and unknown addresses answer alike, in the same time.
      await runBehind(deps, 'sign-up', () => signUp(deps, body));
      return accepted;
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/verify-email', tag, access: 'public', summary: 'Follow a verification link (also confirms a changed address).',
    body: z.object({ token: tokenField }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.statusAnswer('verified')),
    handler: async ({ body }) => {
      await verifyEmail(deps, body.token);
      return { status: 'verified' as const };
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/resend-verification', tag, access: 'public', status: 202, summary: 'Mail a new verification link.',
    body: z.object({ email: emailField }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.mailAcceptedAnswer),
    handler: async ({ body }) => {
      await runBehind(deps, 'resending a verification link', () => resendVerification(deps, body.email));
      return accepted;
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/login', tag, access: 'public',
    summary: 'Sign in. Answers the user and csrf_token, or 401 with code totp_required: then POST /api/auth/login/totp.',
    body: z.object({ email: emailField, password: z.string().min(1).max(1024) }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.signedInAnswer),
    handler: async ({ body, request, reply }) => {
      const result = await signIn(deps, body, clientOf(request));
      if (result.stage === 'active') return startSession(deps, reply, result.session, result.user);
      setSessionCookie(reply, result.session.token, secureCookies(deps), 5 * 60_000);
      const error = gatewayError('GW_ERR_TOTP_REQUIRED', { message: 'Enter the code from your authenticator app, or a recovery code.', code: 'totp_required' });
      return reply.code(401).type('application/json').send(renderOpenAIError(error).body);
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/login/totp', tag, access: 'public', summary: 'The second sign-in step: a TOTP code or a recovery code.',
    body: z.object({ code: z.string().trim().min(6).max(32) }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.signedInAnswer),
    handler: async ({ body, request, reply }) => {
      const { session, user } = await signInSecondFactor(deps, readSessionCookie(request), body.code, clientOf(request));
      return startSession(deps, reply, session, user);
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/logout', tag, access: 'signed_in', summary: 'Sign out: ends this session.',
    answer: lazyAnswer(authAnswers, (m) => m.statusAnswer('signed_out')),
    handler: async ({ caller, reply }) => {
      if (caller.session) await signOut(deps, caller.session.id);
      clearSessionCookie(reply, secureCookies(deps));
      return { status: 'signed_out' as const };
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/password-reset', tag, access: 'public', status: 202, summary: 'Mail a password-reset link (valid 1 hour).',
    body: z.object({ email: emailField }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.mailAcceptedAnswer),
    handler: async ({ body }) => {
      await runBehind(deps, 'a password-reset request', () => requestPasswordReset(deps, body.email));
      return accepted;
    },
  });
  api.route({
    method: 'POST', url: '/api/auth/password-reset/confirm', tag, access: 'public', summary: 'Set a new password from a reset (or invitation) link; ends every session.',
    body: z.object({ token: tokenField, password: passwordField }).strict(),
    answer: lazyAnswer(authAnswers, (m) => m.statusAnswer('password_set')),
    handler: async ({ body }) => {
      await confirmPasswordToken(deps, body.token, body.password);
      return { status: 'password_set' as const };
    },
  });
}
