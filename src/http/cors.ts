// CORS for the API (/v1 and /v1beta) so browser front-ends can call the gateway with a key, when the operator
// lists the allowed origins (CORS_ORIGINS: comma-separated, or `*`). Off by default. Never for /api: its
// routes are cookie-authenticated, and a cross-origin page must not be able to drive them. No
// Access-Control-Allow-Credentials either: the API authenticates by key header, not by cookie.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type CorsOrigins = '*' | ReadonlySet<string>;

/** Headers the official SDKs (openai, @anthropic-ai/sdk, @google/genai) and plain fetch clients send. */
const ALLOWED_HEADERS = new Set([
  'authorization', 'content-type', 'accept', 'x-api-key', 'x-goog-api-key', 'x-goog-api-client', 'x-goog-user-project',
  'anthropic-version', 'anthropic-beta', 'anthropic-dangerous-direct-browser-access', 'openai-organization', 'openai-project',
  'openai-beta', 'idempotency-key', 'x-request-id', 'user-agent',
]);
/** Header families the SDKs add per platform (x-stainless-os, x-stainless-retry-count, …). */
const ALLOWED_PREFIXES = ['x-stainless-', 'x-goog-', 'anthropic-', 'openai-'];
/** Response headers a browser script may read: retry hints, rate limits, request id, cost. */
const EXPOSED_HEADERS = [
  'retry-after', 'x-should-retry', 'x-request-id', 'x-gateway-cost', 'x-gateway-token-count',
  'x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens',
].join(', ');
const PREFLIGHT_MAX_AGE_SECONDS = '600';
/** A preflight listing more than this is not from an SDK; it is answered without allowing anything. */
const MAX_REQUESTED_HEADERS = 64;

/** CORS_ORIGINS as written: unset or empty means off. */
export function parseCorsOrigins(value: string | undefined): CorsOrigins | null {
  const entries = (value ?? '').split(',').map((entry) => entry.trim().replace(/\/+$/, '')).filter(Boolean);
  if (entries.length === 0) return null;
  if (entries.includes('*')) return '*';
  return new Set(entries);
}

const servesCors = (url: string) => url === '/v1' || url === '/v1beta' || url.startsWith('/v1/') || url.startsWith('/v1beta/') || url.startsWith('/v1?') || url.startsWith('/v1beta?');

export function installCors(app: FastifyInstance, origins: CorsOrigins | null): void {
  if (!origins) return;
  const allowedOrigin = (request: FastifyRequest): string | null => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !servesCors(request.url)) return null;
    if (origins === '*') return '*';
    return origins.has(origin) ? origin : null;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const origin = allowedOrigin(request);
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    // With a list of origins the answer depends on the Origin header: caches must keep them apart.
    if (origins !== '*' && servesCors(request.url)) reply.header('vary', 'Origin');
    done();
  });
  const preflight = (request: FastifyRequest, reply: FastifyReply) => {
    if (!allowedOrigin(request)) return reply.code(204).send();
    const requested = String(request.headers['access-control-request-headers'] ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
    const allowed = requested.length <= MAX_REQUESTED_HEADERS
      ? requested.filter((name) => ALLOWED_HEADERS.has(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix)))
      : [];
    reply.header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
    reply.header('access-control-allow-headers', [...new Set([...allowed, 'authorization', 'content-type'])].join(', '));
    reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
    return reply.code(204).send();
  };
  for (const url of ['/v1', '/v1/*', '/v1beta', '/v1beta/*']) app.options(url, preflight);
}
