// Bedrock's errors ⇄ GatewayError. An HTTP error is `{"message": …}` with its type in the x-amzn-errortype
// header (the relay hands it to errorToHub); without the header the type is read from the body's `__type`
// when an upstream puts it there, else from the status, which Bedrock gives most types uniquely. A failure
// inside a ConverseStream is an exception event whose `:exception-type` names it (the event's name here).
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
import type { GatewayError, GatewayErrorKind } from '../../gateway-errors.ts';
import { errorBodyJson, fallbackErrorMessage, upstreamStatusError, type RenderedFormatError } from '../../hub/hub-errors.ts';
import type { SseEvent } from '../../hub/hub-stream.ts';
import type { UpstreamErrorHeaders } from '../../hub/hub-format.ts';
import { converseErrorSchema } from './bedrock-converse-schema.ts';

const TYPE_FOR_STATUS: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** The status each exception type is answered with (stream exception events carry none). */
const STATUS_FOR_TYPE: Record<string, number> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  InvalidSignatureException: 403,
  ExpiredTokenException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ModelStreamErrorException: 424,
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  ModelNotReadyException: 429,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
};

/** `com.amazon.coral.service#ValidationException:http://…` or `validationException` → `ValidationException`. */
export function normaliseErrorType(raw: string): string {
  const name = raw.split(':')[0]!.split('#').pop()!.trim();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Bedrock's "Input is too long for requested model": a fallback model may take it (see attempt-policy.ts). */
const CONTEXT_TOO_LONG = /input is too long|too many input tokens|prompt is too long|context window/i;

export function converseErrorToHub(status: number, body: unknown, headers?: UpstreamErrorHeaders): GatewayError {
  const parsed = converseErrorSchema.safeParse(errorBodyJson(body));
  const message = parsed.success ? parsed.data.message ?? parsed.data.Message : undefined;
  const header = headers?.['x-amzn-errortype'];
  const headerType = typeof header === 'string' && header !== '' ? normaliseErrorType(header) : null;
  if (!parsed.success || message === undefined) return upstreamStatusError(status, { message: fallbackErrorMessage(status, body), code: headerType });
  const type = headerType ?? (parsed.data.__type ? normaliseErrorType(parsed.data.__type) : TYPE_FOR_STATUS[status] ?? null);
  if (type === 'ValidationException' && CONTEXT_TOO_LONG.test(message)) {
    return upstreamStatusError(400, { message, code: 'context_length_exceeded' });
  }
  // A 424 is the model failing behind Bedrock: the client did nothing wrong, so it is an upstream error.
  const clientStatus = status === 424 ? 502 : status;
  return upstreamStatusError(clientStatus, { message, code: type });
}

/** An exception event of a ConverseStream, named by its `:exception-type`. */
export function converseExceptionEventToHub(eventType: string, data: unknown): GatewayError {
  const type = normaliseErrorType(eventType);
  const status = STATUS_FOR_TYPE[type] ?? 500;
  const parsed = converseErrorSchema.safeParse(data);
  const message = (parsed.success ? parsed.data.message ?? parsed.data.Message : undefined) ?? `The model stream failed with ${type}.`;
  return upstreamStatusError(status === 424 ? 502 : status, { message, code: type });
}

const TYPE_FOR_KIND: Record<GatewayErrorKind, string> = {
  invalid_request_error: 'ValidationException',
  authentication_error: 'UnrecognizedClientException',
  permission_error: 'AccessDeniedException',
  not_found_error: 'ResourceNotFoundException',
  request_too_large: 'ValidationException',
  rate_limit_error: 'ThrottlingException',
  insufficient_quota: 'ServiceQuotaExceededException',
  upstream_error: 'ModelErrorException',
  timeout_error: 'ModelTimeoutException',
  overloaded_error: 'ServiceUnavailableException',
  server_error: 'InternalServerException',
};

function converseErrorType(error: GatewayError): string {
  return error.status === 404 ? 'ResourceNotFoundException' : TYPE_FOR_KIND[error.kind];
}

export function hubErrorToConverse(error: GatewayError): RenderedFormatError {
  return {
    status: error.status,
    body: JSON.stringify({ message: error.message }),
    headers: { ...error.headers, 'x-amzn-errortype': converseErrorType(error) },
  };
}

/** The exception event a ConverseStream ends with: named in lowerCamelCase, as Bedrock's stream members are. */
export function hubErrorToConverseStreamEvent(error: GatewayError): SseEvent {
  const type = converseErrorType(error);
  return { event: type.charAt(0).toLowerCase() + type.slice(1), data: JSON.stringify({ message: error.message }) };
}

/** Whether a stream event's name is an exception member (`throttlingException`, …), not a data event. */
export function isConverseExceptionEvent(name: string | undefined): boolean {
  return name !== undefined && /Exception$/.test(name);
}
