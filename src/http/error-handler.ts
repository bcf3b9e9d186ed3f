// Turns every failure into a clear answer in the caller's own error format; never a bare 500 for bad input.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, restated, urlPartTooLong, quoteInput, bodyTooLarge, internalError, invalidJson, invalidRequest, routeNotFound, routeNotFoundWithHint } from '../gateway-errors.ts';
import { pathHintFor } from './path-hints.ts';
import { errorFormatOf, renderError } from './error-formats.ts';
import { lingerBeforeClose } from './connection-guards.ts';

/** `answerBrowserPage`: lets the dashboard answer a browser's unknown page with its own Not Found page. */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number, answerBrowserPage?: (request: FastifyRequest, reply: FastifyReply) => boolean): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A route's own limit, when it has one, is the one the message names.
    const gatewayError = answerableError(error, request.routeOptions.bodyLimit ?? bodyLimit, request.raw, reply.raw, request.log, request.id);
    return sendError(request, reply, gatewayError);
  });
  app.setNotFoundHandler((request, reply) => {
    if (answerBrowserPage?.(request, reply)) return reply;
    const path = request.url.split('?')[0] ?? '';
    const hint = pathHintFor(request, path);
    return sendError(request, reply, hint ? routeNotFoundWithHint(request.method, path, hint) : routeNotFound(request.method, path));
  });
}

/**
 * What a failed request answers, whoever served it (Fastify's error handler, the lean relay lane): the
 * gateway error for any thrown value, with the socket kept open to read the rest of a refused body, and an
 * internal error logged (at debug level when the client had already gone, which is what aborted the call).
 */
export function answerableError(error: unknown, bodyLimit: number, request: IncomingMessage, response: ServerResponse, log: ErrorLog, requestId: string): GatewayError {
  const gatewayError = toGatewayError(error as FastifyError, bodyLimit);
  // Refused before the body was read: let the client finish sending and see this answer.
  if (gatewayError.status < 500) lingerBeforeClose(request);
  // A client that went away mid-call aborts the relay, and that abort arrives here: it is logged (and
  // recorded as GW_ERR_CLIENT_GONE in the usage log by the relay), not reported as our internal error.
  if (gatewayError.status >= 500 && gatewayError.gatewayCode === 'GW_ERR_INTERNAL') {
    if (request.destroyed || response.destroyed) log.debug({ err: error, requestId }, 'client went away before the answer');
    else log.error({ err: error, requestId }, 'internal error');
  }
  return boundedError(gatewayError);
}

interface ErrorLog {
  debug(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Longest error message sent: messages quote client values, and a client chooses their size. */
const MAX_MESSAGE_CHARS = 2_000;

function boundedError(error: GatewayError): GatewayError {
  if (error.message.length <= MAX_MESSAGE_CHARS) return error;
  return restated(error, { message: quoteInput(error.message, MAX_MESSAGE_CHARS), param: error.param === null ? null : quoteInput(error.param), code: error.code, headers: error.headers });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
  error = boundedError(error);
  const rendered = renderError(errorFormatOf(request), error);
  return reply.code(rendered.status).headers(error.headers).headers(rendered.headers ?? {}).type('application/json').send(rendered.body);
}

/** Fastify's router refusals (a malformed %-escape in the path, an over-long path parameter). */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const gatewayError = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? urlPartTooLong(100)
    : error.code === 'FST_ERR_BAD_URL'
      ? invalidRequest('The request URL is not valid: it has a malformed %-escape.', null, 'invalid_url')
      : toGatewayError(error, 0);
  void sendError(request, reply, gatewayError);
}

/** Fastify's own errors (body parsing, limits) become gateway errors with the right 4xx. */
function toGatewayError(error: FastifyError, bodyLimit: number): GatewayError {
  if (error instanceof GatewayError) return error;
  // Converters and validators recurse over the request: input nested thousands deep overflows the stack.
  // That is the input's fault, and nothing has been sent upstream or charged at that point.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return invalidRequest('The request is nested too deeply.', null, 'nesting_too_deep');
  }
  // A malformed %-escape in a query string or path parameter, found while decoding it.
  if (error instanceof URIError) return invalidRequest('The request URL is not valid: it has a malformed %-escape.', null, 'invalid_url');
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
