// Where to go after sign-in: a path on this site, never another site. The same rule as the server's
// `next` check (src/accounts/signin-flows.ts safeReturnPath; test/web/safe-next.test.ts holds them equal):
// one leading slash not followed by another slash or a backslash (browsers read "/\evil.com" as
// "//evil.com"), no whitespace or control characters, at most 1,000 characters.
export function safeNext(next: string | null | undefined): string {
  if (!next || next.length > 1000) return '/';
  return /^\/(?![/\\])[^\\\s\u0000-\u001f]*$/.test(next) ? next : '/';
}
