import { i18n } from '../../i18n/i18n.ts';

/** The server's rule (at least 10 characters), checked in the form first so the user sees it at once. */
const MIN_PASSWORD_LENGTH = 10;

export function passwordProblem(password: string): string | null {
  return password.length >= MIN_PASSWORD_LENGTH ? null : i18n.t('auth.passwordTooShort', { count: MIN_PASSWORD_LENGTH });
}

export function emailProblem(email: string): string | null {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? null : i18n.t('auth.emailInvalid');
}
