// Upstream error bodies often echo the credential they refused ("Incorrect API key provided:
// sk-abc***xyz1"), and proxies echo headers or query strings. Nothing of a channel's credential may reach a
// client, a usage row or a log line, so every upstream text is passed through here first.

/** Key-shaped tokens of the providers we know, and any token masked with *** or … (a masked secret). */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\b(?:sk|pk|rk)-[A-Za-z0-9_\-*.…]{3,}/g, '[redacted]'],
  [/\bAIza[0-9A-Za-z_\-*…]{6,}/g, '[redacted]'],
  [/\bBearer\s+[^\s"',;]+/gi, 'Bearer [redacted]'],
  [/\b((?:x-)?(?:api[_-]?key|goog-api-key|access[_-]?token|token)\s*[=:]\s*)["']?[^\s"'&,;]+/gi, '$1[redacted]'],
  [/([?&]key=)[^\s"'&,;]+/gi, '$1[redacted]'],
  [/[^\s"'(),;:]*(?:\*{3,}|(?<=[A-Za-z0-9])…(?=[A-Za-z0-9]))[^\s"'(),;:]*/g, '[redacted]'],
];

const MAX_REDACTED_CHARS = 8 * 1024;

/** Removes the channel's own credentials (exactly) and anything shaped like a credential; cuts to 8 KB. */
export function redactSecrets(text: string, credentials: readonly string[] = []): string {
  // Messages are shown cut to 2,000 characters anyway; the patterns below are not linear on a long run
  // without separators, so a 10 MB upstream error body would hold the event loop for minutes.
  let redacted = text.length > MAX_REDACTED_CHARS ? text.slice(0, MAX_REDACTED_CHARS) : text;
  for (const credential of credentials) {
    // Short values (a test key like "k") would blank ordinary words; the patterns still catch key shapes.
    if (credential.length >= 8) redacted = redacted.replaceAll(credential, '[redacted]');
    // A composite credential (Bedrock's ACCESS_KEY_ID:SECRET:SESSION_TOKEN) is redacted part by part too:
    // AWS echoes the session token inside the canonical request of an InvalidSignatureException.
    if (credential.includes(':')) {
      for (const part of credential.split(':')) if (part.length >= 8) redacted = redacted.replaceAll(part, '[redacted]');
    }
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) redacted = redacted.replace(pattern, replacement);
  return redacted;
}

/**
 * Whether an error body says the credential itself was refused although the status is not 401/403:
 * Google answers a wrong API key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
 */
export function refusesCredential(bodyText: string): boolean {
  return bodyText.length < 64 * 1024 && /"reason"\s*:\s*"API_KEY_(?:INVALID|EXPIRED)"|API key not valid|API key expired/i.test(bodyText);
}
