// Turns every failure into a clear answer in the caller's own error format; never a bare 500 for bad input.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, bodyTooLarge, internalError, invalidJson, invalidRequest, routeNotFound, routeNotFoundWithHint } from '../gateway-errors.ts';
import { pathHintFor } from './path-hints.ts';
import { errorFormatOf, renderError } from './error-formats.ts';

export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const gatewayError = toGatewayError(error, bodyLimit);
    if (gatewayError.status >= 500 && gatewayError.gatewayCode === 'GW_ERR_INTERNAL') {
      request.log.error({ err: error, requestId: request.id }, 'internal error');
    }
    return sendError(request, reply, gatewayError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const hint = pathHintFor(request, path);
    return sendError(request, reply, hint ? routeNotFoundWithHint(request.method, path, hint) : routeNotFound(request.method, path));
  });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
  const rendered = renderError(errorFormatOf(request), error);
  return reply.code(rendered.status).headers(error.headers).headers(rendered.headers ?? {}).type('application/json').send(rendered.body);
}

/** Fastify's own errors (body parsing, limits) become gateway errors with the right 4xx. */
function toGatewayError(error: FastifyError, bodyLimit: number): GatewayError {
  if (error instanceof GatewayError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(bodyLimit);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidJson('the body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidRequest('Unsupported Content-Type; send application/json.', null, 'unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidRequest('The Content-Length header does not match the body.');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return invalidRequest(error.message);
  }
  return internalError(error);
}
