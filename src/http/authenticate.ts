// Finds the caller's key in whichever header its SDK uses and checks it against the in-memory index.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { CachedKey } from '../accounts/key-index.ts';
import { authenticateKey } from '../accounts/authenticate-key.ts';
import type { GatewayState } from '../gateway-state.ts';
import { formats } from '../formats/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: CachedKey;
  }
}

// Where keys are presented, as the formats declare it (OpenAI: Authorization Bearer; Anthropic: x-api-key;
// Gemini: x-goog-api-key or ?key=), gathered once at start so a request costs no allocation.
const conventions = Object.values(formats).map((format) => format.clientKey);
const BEARER_HEADERS = [...new Set(conventions.filter((key) => key.bearer).map((key) => key.header))];
const PLAIN_HEADERS = [...new Set(conventions.filter((key) => !key.bearer).map((key) => key.header))];
const QUERY_PARAMETERS = [...new Set(conventions.flatMap((key) => (key.query ? [key.query] : [])))];
const BEARER = /^Bearer\s+(.+)$/i;

/** The key in any format's convention: any of them works anywhere, so a client's SDK works on every route. */
export function presentedKey(request: FastifyRequest): string | undefined {
  return keyInHeadersOrQuery(request.headers, request.query as Record<string, unknown> | undefined);
}

/** The same, from the raw request's headers and (when the URL had one) its parsed query string. */
export function keyInHeadersOrQuery(headers: IncomingHttpHeaders, query: Record<string, unknown> | undefined): string | undefined {
  for (const name of BEARER_HEADERS) {
    const value = headers[name];
    const match = typeof value === 'string' && value ? BEARER.exec(value) : null;
    if (match) return match[1]!.trim();
  }
  for (const name of PLAIN_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && value) return value.trim();
  }
  for (const name of QUERY_PARAMETERS) {
    const value = query?.[name];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

export function authenticateRequest(state: GatewayState, request: FastifyRequest): CachedKey {
  const key = authenticateKey(state.current.keys, presentedKey(request), request.ip, Date.now());
  request.apiKey = key;
  return key;
}
