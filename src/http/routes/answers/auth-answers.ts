// What /api/auth answers (src/http/routes/api-auth-routes.ts): the signed-in user as userView shows it
// (src/accounts/user-view.ts), with the CSRF token, and the plain status answers of the other steps.
import { z } from 'zod';
import { rowId } from './common-answers.ts';

/** A user as the API shows one (userView): never the password hash or the TOTP secret. */
export const userAnswer = z.object({
  id: rowId,
  email: z.string().nullable(),
  name: z.string(),
  handle: z.string(),
  role: z.enum(['user', 'admin']),
  /** 'organisation': an organisation's wallet account (nobody signs in to it). */
  kind: z.enum(['person', 'organisation']),
  status: z.enum(['active', 'disabled']),
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  balance_usd: z.number(),
  created_at: z.string(),
});

/** Sign-in's answer (password, second factor, passkey): who signed in and the session's CSRF token. */
export const signedInAnswer = z.object({ user: userAnswer, csrf_token: z.string() });

/** Sign-up, a new verification link, a password reset: the same answer whether or not the address has an account. */
export const mailAcceptedAnswer = z.object({ status: z.literal('ok'), message: z.string() });

/** A step that only says how it ended: `{ status: <word> }`. */
export const statusAnswer = <S extends string>(status: S) => z.object({ status: z.literal(status) });
