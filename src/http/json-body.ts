// JSON bodies: parsed once for validation, and the original bytes kept so a passthrough hop can forward
// them without re-serialising.
import type { FastifyInstance } from 'fastify';
import { invalidJson } from '../gateway-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // Any content type is read as JSON: curl -d sends form encoding, and some SDKs send none at all.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    request.rawBody = bytes;
    if (bytes.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(bytes.toString('utf8')));
    } catch (error) {
      done(invalidJson((error as Error).message), undefined);
    }
  });
}
