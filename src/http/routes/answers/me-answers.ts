// What /api/me answers (src/http/routes/api-me-routes.ts): the user (userView) and settings (settingsView,
// src/accounts/user-view.ts); a privilege change (password, two-factor) rotates the session and answers
// its new CSRF token (absent when the caller used an API key and has no session).
import { z } from 'zod';
import { listOf } from './common-answers.ts';
import { statusAnswer, userAnswer } from './auth-answers.ts';

const settingsAnswer = z.object({
  notifications: z.object({ low_balance_usd: z.number().nullable(), key_expiry_days: z.number().int().nullable() }),
  sidebar: z.object({ order: z.array(z.string()), hidden: z.array(z.string()) }).nullable(),
});

const rotatedCsrf = { csrf_token: z.string().optional() };

/** GET /api/me: csrf_token only for a session (not for an API key). */
export const meAnswer = z.object({ user: userAnswer, settings: settingsAnswer, csrf_token: z.string().optional() });
export const profileAnswer = z.object({ user: userAnswer, email_change_pending: z.boolean() });
export const settingsSavedAnswer = z.object({ settings: settingsAnswer });
export const passwordChangedAnswer = statusAnswer('password_changed').extend(rotatedCsrf);
export const twoFactorSetupAnswer = z.object({ secret: z.string(), otpauth_url: z.string(), qr: z.string() });
export const twoFactorEnabledAnswer = z.object({ recovery_codes: z.array(z.string()), ...rotatedCsrf });
export const twoFactorDisabledAnswer = statusAnswer('two_factor_disabled').extend(rotatedCsrf);
export const sessionsAnswer = listOf(z.object({
  id: z.string(),
  current: z.boolean(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
}));
export const sessionEndedAnswer = z.object({ id: z.string(), ended: z.literal(true) });
