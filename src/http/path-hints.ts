// Forgiving addresses: an unknown path that is a known one without its version prefix (`/chat/completions`
// for `/v1/chat/completions`, `/models/x:generateContent` for `/v1beta/models/x:generateContent`) gets a
// 404 that names the right path, because a client's base URL missing `/v1` is the commonest setup mistake.
// The known paths are collected as routes are added, so the hint never names a route that does not exist.
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The known path the unknown one most likely meant, or null. */
    pathHint?: (method: string, path: string) => string | null;
  }
}

const VERSION_PREFIXES = ['/v1', '/v1beta'];

/** Call before any route is added. */
export function installPathHints(app: FastifyInstance): void {
  const routes: { method: string; pattern: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(`^${route.url.split(/(\*|:[A-Za-z0-9_]+)/).map((piece) => (piece === '*' ? '.*' : piece.startsWith(':') ? '[^/]+' : piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
    for (const method of methods) routes.push({ method: method.toUpperCase(), pattern });
  });
  app.decorate('pathHint', (method: string, path: string) => {
    if (VERSION_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) || path.length > 2048) return null;
    // A Gemini method (`…:generateContent`) most likely meant Gemini's own /v1beta.
    const prefixes = path.includes(':') ? [...VERSION_PREFIXES].reverse() : VERSION_PREFIXES;
    for (const prefix of prefixes) {
      const candidate = prefix + path;
      if (routes.some((route) => route.method === method && route.pattern.test(candidate))) return candidate;
    }
    return null;
  });
}

export function pathHintFor(request: FastifyRequest, path: string): string | null {
  return request.server.pathHint?.(request.method, path) ?? null;
}
