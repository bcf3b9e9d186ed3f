// OpenAI's error envelope {"error":{"message","type","param","code"}} ⇄ GatewayError.
import type { GatewayError, GatewayErrorKind } from '../../gateway-errors.ts';
import { errorBodyJson, fallbackErrorMessage, upstreamStatusError, type RenderedFormatError } from '../../hub/hub-errors.ts';
import type { SseEvent } from '../../hub/hub-stream.ts';
import { openaiErrorSchema } from './openai-chat-schema.ts';

// OpenAI's own `type` values name the same kinds as the gateway's (the gateway's tree is named after them).
const KNOWN_KINDS = new Set<string>([
  'invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'request_too_large',
  'rate_limit_error', 'insufficient_quota', 'server_error',
]);

export function openaiErrorToHub(status: number, body: unknown): GatewayError {
  const parsed = openaiErrorSchema.safeParse(errorBodyJson(body));
  if (!parsed.success) return upstreamStatusError(status, { message: fallbackErrorMessage(status, body) });
  const error = parsed.data.error;
  const code = error.code === undefined || error.code === null ? null : String(error.code);
  // A 429 for an empty balance is OpenAI's insufficient_quota, not a rate limit: clients must not retry it.
  const kind = code === 'insufficient_quota' ? 'insufficient_quota' : error.type && KNOWN_KINDS.has(error.type) && status < 500 ? (error.type as GatewayErrorKind) : undefined;
  return upstreamStatusError(status, { message: error.message, param: error.param ?? null, code, ...(kind ? { kind } : {}) });
}

function hubErrorToOpenaiBody(error: GatewayError): Record<string, unknown> {
  return { error: { message: error.message, type: error.kind, param: error.param, code: error.code } };
}

export function hubErrorToOpenaiChat(error: GatewayError): RenderedFormatError {
  return { status: error.status, body: JSON.stringify(hubErrorToOpenaiBody(error)), headers: error.headers };
}

export function hubErrorToOpenaiStreamEvent(error: GatewayError): SseEvent {
  return { data: JSON.stringify(hubErrorToOpenaiBody(error)) };
}
