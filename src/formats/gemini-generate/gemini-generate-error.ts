// Google's error envelope {"error":{"code","message","status"}} ⇄ GatewayError.
import type { GatewayError, GatewayErrorKind } from '../../gateway-errors.ts';
import { errorBodyJson, fallbackErrorMessage, upstreamStatusError, type RenderedFormatError } from '../../hub/hub-errors.ts';
import type { SseEvent } from '../../hub/hub-stream.ts';
import { geminiErrorSchema } from './gemini-generate-schema.ts';

/** @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes */
const KIND_FOR_STATUS_NAME: Record<string, GatewayErrorKind> = {
  INVALID_ARGUMENT: 'invalid_request_error',
  FAILED_PRECONDITION: 'invalid_request_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'permission_error',
  NOT_FOUND: 'not_found_error',
  RESOURCE_EXHAUSTED: 'rate_limit_error',
  INTERNAL: 'server_error',
  UNAVAILABLE: 'overloaded_error',
  DEADLINE_EXCEEDED: 'timeout_error',
};

export function geminiErrorToHub(status: number, body: unknown): GatewayError {
  let json = errorBodyJson(body);
  // The streaming endpoint answers errors as a one-element array.
  if (Array.isArray(json)) json = json[0];
  const parsed = geminiErrorSchema.safeParse(json);
  if (!parsed.success) return upstreamStatusError(status, { message: fallbackErrorMessage(status, body) });
  const { message, status: name } = parsed.data.error;
  const kind = name ? KIND_FOR_STATUS_NAME[name] : undefined;
  return upstreamStatusError(status, { message, code: name ?? null, ...(kind ? { kind } : {}) });
}

const STATUS_NAME_FOR_KIND: Record<GatewayErrorKind, string> = {
  invalid_request_error: 'INVALID_ARGUMENT',
  authentication_error: 'UNAUTHENTICATED',
  permission_error: 'PERMISSION_DENIED',
  not_found_error: 'NOT_FOUND',
  request_too_large: 'INVALID_ARGUMENT',
  rate_limit_error: 'RESOURCE_EXHAUSTED',
  insufficient_quota: 'RESOURCE_EXHAUSTED',
  upstream_error: 'UNAVAILABLE',
  timeout_error: 'DEADLINE_EXCEEDED',
  overloaded_error: 'UNAVAILABLE',
  server_error: 'INTERNAL',
};

function googleStatusName(error: GatewayError): string {
  if (error.status === 404) return 'NOT_FOUND';
  return STATUS_NAME_FOR_KIND[error.kind];
}

function hubErrorToGeminiBody(error: GatewayError): Record<string, unknown> {
  return { error: { code: error.status, message: error.message, status: googleStatusName(error) } };
}

export function hubErrorToGeminiGenerate(error: GatewayError): RenderedFormatError {
  return { status: error.status, body: JSON.stringify(hubErrorToGeminiBody(error)), headers: error.headers };
}

export function hubErrorToGeminiStreamEvent(error: GatewayError): SseEvent {
  return { data: JSON.stringify(hubErrorToGeminiBody(error)) };
}
