/** The server's rule (at least 10 characters), checked in the form first so the user sees it at once. */
const MIN_PASSWORD_LENGTH = 10;

export function passwordProblem(password: string): string | null {
  return password.length >= MIN_PASSWORD_LENGTH ? null : `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
}

export function emailProblem(email: string): string | null {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? null : 'Enter an e-mail address such as name@example.com.';
}
