// Finds the caller's key in whichever header its SDK uses and checks it against the in-memory index.
import type { FastifyRequest } from 'fastify';
import type { CachedKey } from '../accounts/key-index.ts';
import { authenticateKey } from '../accounts/authenticate-key.ts';
import type { GatewayState } from '../gateway-state.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: CachedKey;
  }
}

/** OpenAI: Authorization Bearer; Anthropic: x-api-key; Gemini: x-goog-api-key or ?key=. Any of them works anywhere. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (match) return match[1]!.trim();
  }
  const fromHeader = request.headers['x-api-key'] ?? request.headers['x-goog-api-key'];
  if (typeof fromHeader === 'string' && fromHeader) return fromHeader.trim();
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.key;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

export function authenticateRequest(state: GatewayState, request: FastifyRequest): CachedKey {
  const key = authenticateKey(state.current.keys, presentedKey(request), request.ip, Date.now());
  request.apiKey = key;
  return key;
}
