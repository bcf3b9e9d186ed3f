// Anthropic's error envelope {"type":"error","error":{"type","message"}} ⇄ GatewayError.
import type { GatewayError, GatewayErrorKind } from '../../gateway-errors.ts';
import { errorBodyJson, fallbackErrorMessage, upstreamStatusError, type RenderedFormatError } from '../../hub/hub-errors.ts';
import type { SseEvent } from '../../hub/hub-stream.ts';
import { anthropicErrorSchema } from './anthropic-messages-schema.ts';

/** @see https://docs.anthropic.com/en/api/errors */
const KIND_FOR_ANTHROPIC_TYPE: Record<string, GatewayErrorKind> = {
  invalid_request_error: 'invalid_request_error',
  authentication_error: 'authentication_error',
  billing_error: 'insufficient_quota',
  permission_error: 'permission_error',
  not_found_error: 'not_found_error',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit_error',
  timeout_error: 'timeout_error',
  api_error: 'server_error',
  overloaded_error: 'overloaded_error',
};

/** Mid-stream error events carry no HTTP status: the one Anthropic uses for the type stands in. */
const STATUS_FOR_ANTHROPIC_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  timeout_error: 504,
  api_error: 500,
  overloaded_error: 529,
};

export function anthropicErrorStatus(type: string): number {
  return STATUS_FOR_ANTHROPIC_TYPE[type] ?? 500;
}

export function anthropicErrorToHub(status: number, body: unknown): GatewayError {
  const parsed = anthropicErrorSchema.safeParse(errorBodyJson(body));
  if (!parsed.success) return upstreamStatusError(status, { message: fallbackErrorMessage(status, body) });
  const { type, message } = parsed.data.error;
  const kind = KIND_FOR_ANTHROPIC_TYPE[type];
  return upstreamStatusError(status, { message, code: type, ...(kind ? { kind } : {}) });
}

const ANTHROPIC_TYPE_FOR_KIND: Record<GatewayErrorKind, string> = {
  invalid_request_error: 'invalid_request_error',
  authentication_error: 'authentication_error',
  permission_error: 'permission_error',
  not_found_error: 'not_found_error',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit_error',
  insufficient_quota: 'rate_limit_error',
  upstream_error: 'api_error',
  timeout_error: 'api_error',
  overloaded_error: 'overloaded_error',
  server_error: 'api_error',
};

function anthropicErrorType(error: GatewayError): string {
  // A 404 for an unknown model is an invalid request in OpenAI's words but not_found_error in Anthropic's.
  if (error.status === 404) return 'not_found_error';
  return ANTHROPIC_TYPE_FOR_KIND[error.kind];
}

function hubErrorToAnthropicBody(error: GatewayError): Record<string, unknown> {
  return { type: 'error', error: { type: anthropicErrorType(error), message: error.message } };
}

export function hubErrorToAnthropicMessages(error: GatewayError): RenderedFormatError {
  return { status: error.status, body: JSON.stringify(hubErrorToAnthropicBody(error)), headers: error.headers };
}

export function hubErrorToAnthropicStreamEvent(error: GatewayError): SseEvent {
  return { event: 'error', data: JSON.stringify(hubErrorToAnthropicBody(error)) };
}
