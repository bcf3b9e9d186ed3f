// JSON bodies: parsed once for validation, and the original bytes kept so a passthrough hop can forward
// them without re-serialising.
import type { FastifyInstance } from 'fastify';
import { invalidJson } from '../gateway-errors.ts';
import { readBody } from './read-body.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // Any content type is read as JSON: curl -d sends form encoding, and some SDKs send none at all. Read by
  // readBody (one growing buffer) rather than Fastify's `parseAs: 'buffer'`, which keeps every chunk.
  app.addContentTypeParser('*', (request, payload, done) => {
    readBody(payload, request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 1_048_576).then((bytes) => {
      request.rawBody = bytes;
      if (bytes.length === 0) return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch (error) {
        return done(invalidJson((error as Error).message), undefined);
      }
      done(null, parsed);
    }, (error: Error) => done(error, undefined));
  });
}
