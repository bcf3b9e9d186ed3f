// Which wire format a request's errors are rendered in, and the renderer for each.
import type { FastifyRequest } from 'fastify';
import type { GatewayError } from '../gateway-errors.ts';
import { renderOpenAIError, type RenderedError } from './openai-error.ts';

export type ErrorFormat = 'openai' | 'anthropic' | 'gemini';

type Renderer = (error: GatewayError) => RenderedError;
const renderers: Record<ErrorFormat, Renderer> = {
  openai: renderOpenAIError,
  anthropic: renderOpenAIError,
  gemini: renderOpenAIError,
};

/** Lets the format converters (src/formats) install their renderers without http importing them eagerly. */
export function setErrorRenderer(format: ErrorFormat, renderer: Renderer): void {
  renderers[format] = renderer;
}

export function renderError(format: ErrorFormat, error: GatewayError): RenderedError {
  return renderers[format](error);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    errorFormat?: ErrorFormat;
  }
}

/** The route's declared format; for unknown URLs, guessed from the path so 404s still match the client. */
export function errorFormatOf(request: FastifyRequest): ErrorFormat {
  const declared = request.routeOptions.config?.errorFormat;
  if (declared) return declared;
  if (request.url.startsWith('/v1beta/')) return 'gemini';
  if (request.url.startsWith('/v1/messages')) return 'anthropic';
  return 'openai';
}
