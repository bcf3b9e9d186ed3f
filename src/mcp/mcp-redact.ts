// What is kept of a tool call's arguments and result when its server logs payloads: secret-looking fields
// blanked by name, credential-shaped strings (and the server's own credential) blanked by value, and the
// whole cut to a bound, so a log row never holds a secret or an unbounded body.
import { redactSecrets } from '../relay/redact-credentials.ts';
import type { McpUpstream } from './mcp-upstream.ts';

const SECRET_FIELD = /pass(?:word|phrase)?|secret|token|api[_-]?key|authori[sz]ation|cookie|credential|private[_-]?key/i;
const MAX_DEPTH = 20;
/** Longest stored JSON per payload; longer ones are cut and marked. */
const MAX_PAYLOAD_CHARS = 16 * 1024;

function redactValue(value: unknown, credentials: readonly string[], depth: number): unknown {
  if (depth > MAX_DEPTH) return '[too deep]';
  if (typeof value === 'string') return redactSecrets(value, credentials);
  if (Array.isArray(value)) return value.slice(0, 1_000).map((item) => redactValue(item, credentials, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value).slice(0, 1_000)) out[name] = SECRET_FIELD.test(name) ? '[redacted]' : redactValue(item, credentials, depth + 1);
    return out;
  }
  return value;
}

/**
 * The server's credential as it may be echoed: each header value whole and, for `Bearer x` / `Basic x`, the
 * token alone (a server answering "invalid token x" echoes only that); the OAuth client secret.
 */
export function credentialValues(upstream: McpUpstream): string[] {
  const credential = upstream.credential;
  if (!credential) return [];
  if (!('headers' in credential)) return [credential.oauth.client_secret];
  return Object.values(credential.headers).flatMap((value) => {
    const token = /^\S+\s+(\S+)$/.exec(value.trim())?.[1];
    return token ? [value, token] : [value];
  });
}

/** The payload as stored JSON, redacted and bounded; null when there is none. */
export function redactedPayload(value: unknown, upstream: McpUpstream): string | null {
  if (value === undefined) return null;
  const json = JSON.stringify(redactValue(value, credentialValues(upstream), 0)) ?? null;
  if (json === null || json.length <= MAX_PAYLOAD_CHARS) return json;
  return JSON.stringify({ truncated: true, json_prefix: json.slice(0, MAX_PAYLOAD_CHARS) });
}
