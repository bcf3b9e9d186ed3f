// Which wire format a request's errors are rendered in, and the renderer for each.
import type { FastifyRequest } from 'fastify';
import type { GatewayError } from '../gateway-errors.ts';
import type { RenderedFormatError } from '../hub/hub-errors.ts';
import { getFormat, hasFormat, type FormatName } from '../formats/index.ts';
import type { FormatConverters } from '../hub/hub-format.ts';

/** Errors are rendered in a wire format's own envelope, by the format (its `hubToError`). */
type ErrorFormat = FormatName;

/** A registered format's name, as a route declares its error format by. */
export function registeredName(format: FormatConverters): ErrorFormat {
  if (!hasFormat(format.name)) throw new Error(`The format '${format.name}' is not registered.`);
  return format.name;
}

export function renderError(format: ErrorFormat, error: GatewayError): RenderedFormatError {
  return getFormat(format).hubToError(error);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    errorFormat?: ErrorFormat;
  }
  interface FastifyRequest {
    /** Set by a route that serves several formats, once it knows which one this request speaks. */
    errorFormat?: ErrorFormat;
  }
}

/** The route's declared format; for unknown URLs, guessed from the path so 404s still match the client. */
export function errorFormatOf(request: FastifyRequest): ErrorFormat {
  const declared = request.errorFormat ?? request.routeOptions.config?.errorFormat;
  if (declared) return declared;
  return errorFormatForUrl(request.url, request.headers);
}

/** The format guessed from the path alone: for unknown URLs and for errors raised before any route matched. */
export function errorFormatForUrl(url: string, headers: Record<string, string | string[] | undefined>): ErrorFormat {
  // Gemini's generateContent is also served under /v1 (`/v1/models/{model}:generateContent`).
  if (url.startsWith('/v1beta/') || (url.startsWith('/v1/models/') && url.split('?', 1)[0]!.includes(':'))) return 'gemini-generate';
  if (url.startsWith('/v1/messages') || headers['anthropic-version'] !== undefined) return 'anthropic-messages';
  return 'openai-chat';
}
