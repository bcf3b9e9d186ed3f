// Every error the gateway raises itself: one stable code, an HTTP status and a message a user can act on.
// Each wire format renders these in its own error shape (src/formats/<format>/*-error.ts; src/http for OpenAI).
// Every code is declared once, with its status and kind, in src/gateway-error-codes.ts.
import type { GatewayErrorCode } from './gateway-error-codes.ts';

/** The kind of problem, named after OpenAI's error `type` values, which the other formats map from. */
export type GatewayErrorKind =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'insufficient_quota'
  | 'upstream_error'
  | 'timeout_error'
  | 'overloaded_error'
  | 'server_error';

export interface GatewayErrorInit {
  message: string;
  /** The request field at fault, for 400s: `messages[0].role`. */
  param?: string | null;
  /** The OpenAI-style error code clients switch on: `model_not_found`, `invalid_api_key`, … */
  code?: string | null;
  /** Response headers the error needs, such as Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly status: number;
  readonly kind: GatewayErrorKind;
  /** Stable and greppable: GW_ERR_…, declared in gateway-error-codes.ts; logged and stored, never parsed by clients. */
  readonly gatewayCode: GatewayErrorCode;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers: Record<string, string>;

  constructor(status: number, kind: GatewayErrorKind, gatewayCode: GatewayErrorCode, init: GatewayErrorInit) {
    super(init.message, { cause: init.cause });
    this.name = 'GatewayError';
    this.status = status;
    this.kind = kind;
    this.gatewayCode = gatewayCode;
    this.param = init.param ?? null;
    this.code = init.code ?? null;
    this.headers = init.headers ?? {};
  }
}

/** A client's value quoted in an error message, cut to a readable length: a 15 MB model name must not
 * come back as a 15 MB error. */
export function quoteInput(value: string, max = 200): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new GatewayError(400, 'invalid_request_error', 'GW_ERR_INVALID_REQUEST', { message, param, code });

export const invalidJson = (detail: string) =>
  new GatewayError(400, 'invalid_request_error', 'GW_ERR_INVALID_JSON', {
    message: `We could not parse the JSON body of your request: ${detail}`,
    code: 'invalid_json',
  });

export const bodyTooLarge = (limitBytes: number) =>
  new GatewayError(413, 'request_too_large', 'GW_ERR_BODY_TOO_LARGE', {
    message: `The request body is larger than the limit of ${limitBytes} bytes.`,
    code: 'request_too_large',
  });

export const missingApiKey = () =>
  new GatewayError(401, 'authentication_error', 'GW_ERR_MISSING_KEY', {
    message: 'You did not provide an API key. Send it as `Authorization: Bearer sk-…`.',
    code: 'missing_api_key',
  });

export const invalidApiKey = () =>
  new GatewayError(401, 'authentication_error', 'GW_ERR_INVALID_KEY', {
    message: 'Incorrect API key provided. Use a key issued by this gateway.',
    code: 'invalid_api_key',
  });

export const expiredApiKey = () =>
  new GatewayError(401, 'authentication_error', 'GW_ERR_EXPIRED_KEY', {
    message: 'This API key has expired. Create a new key or extend its expiry.',
    code: 'expired_api_key',
  });

export const disabledApiKey = () =>
  new GatewayError(401, 'authentication_error', 'GW_ERR_DISABLED_KEY', {
    message: 'This API key has been disabled.',
    code: 'invalid_api_key',
  });

export const disabledUser = () =>
  new GatewayError(403, 'permission_error', 'GW_ERR_DISABLED_USER', {
    message: 'The account that owns this API key is disabled.',
    code: 'account_disabled',
  });

export const ipNotAllowed = (ip: string) =>
  new GatewayError(403, 'permission_error', 'GW_ERR_IP_NOT_ALLOWED', {
    message: `Requests from ${ip} are not allowed for this API key.`,
    code: 'ip_not_allowed',
  });

export const modelNotAllowed = (model: string) =>
  new GatewayError(403, 'permission_error', 'GW_ERR_MODEL_NOT_ALLOWED', {
    message: `This API key is not allowed to use the model '${quoteInput(model)}'.`,
    param: 'model',
    code: 'model_not_allowed',
  });

export const modelNotFound = (model: string) =>
  new GatewayError(404, 'invalid_request_error', 'GW_ERR_MODEL_NOT_FOUND', {
    message: `The model '${quoteInput(model)}' does not exist or no channel serves it.`,
    param: 'model',
    code: 'model_not_found',
  });

export const routeNotFound = (method: string, url: string) =>
  new GatewayError(404, 'invalid_request_error', 'GW_ERR_ROUTE_NOT_FOUND', {
    message: `Unknown request URL: ${quoteInput(method, 20)} ${quoteInput(url)}.`,
    code: 'unknown_url',
  });

export const upstreamUnreachable = (channel: string, cause: unknown) =>
  (cause as { code?: unknown } | null)?.code === 'GW_UPSTREAM_BODY_TOO_LARGE'
    ? upstreamResponseTooLarge(channel, cause)
    : new GatewayError(502, 'upstream_error', 'GW_ERR_UPSTREAM_UNREACHABLE', {
      message: `The upstream channel '${channel}' could not be reached.`,
      code: 'upstream_unreachable',
      cause,
    });

export const upstreamTimeout = (channel: string, phase: string) =>
  new GatewayError(504, 'timeout_error', 'GW_ERR_UPSTREAM_TIMEOUT', {
    message: `The upstream channel '${channel}' did not answer in time (${phase}).`,
    code: 'upstream_timeout',
  });

export const upstreamBadResponse = (channel: string, detail: string) =>
  new GatewayError(502, 'upstream_error', 'GW_ERR_UPSTREAM_BAD_RESPONSE', {
    message: `The upstream channel '${channel}' sent a response the gateway could not read: ${detail}`,
    code: 'upstream_bad_response',
  });

export const internalError = (cause: unknown) =>
  new GatewayError(500, 'server_error', 'GW_ERR_INTERNAL', {
    message: 'The gateway hit an internal error. It has been logged.',
    code: 'internal_error',
    cause,
  });

export const modelPriceMissing = (model: string) =>
  new GatewayError(403, 'permission_error', 'GW_ERR_MODEL_PRICE_MISSING', {
    message: `The model '${quoteInput(model)}' has no price configured, so it cannot be billed. An operator must set its price or mark it free.`,
    param: 'model',
    code: 'model_price_missing',
  });

export const insufficientQuota = (what: 'wallet' | 'key') =>
  new GatewayError(429, 'insufficient_quota', 'GW_ERR_INSUFFICIENT_QUOTA', {
    message: what === 'wallet'
      ? 'Your balance is too low for this request. Top up your wallet, or lower max_tokens.'
      : "This API key's quota is used up, or too low for this request. Raise the key's quota, or lower max_tokens.",
    code: 'insufficient_quota',
    headers: { 'x-should-retry': 'false' },
  });

export const rateLimited = (limit: 'rpm' | 'tpm', subject: string, retryAfterSeconds: number) =>
  new GatewayError(429, 'rate_limit_error', 'GW_ERR_RATE_LIMITED', {
    message: `Rate limit reached: ${limit === 'rpm' ? 'requests' : 'tokens'} per minute for this ${subject.startsWith('user:') ? 'account' : 'API key'}. Try again in ${retryAfterSeconds} s.`,
    code: 'rate_limit_exceeded',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const modelUnavailable = (model: string) =>
  new GatewayError(503, 'overloaded_error', 'GW_ERR_MODEL_UNAVAILABLE', {
    message: `Every channel serving '${quoteInput(model)}' is disabled right now. An administrator has been told; try again later.`,
    param: 'model',
    code: 'model_unavailable',
  });

export const sharedStateUnavailable = (cause: unknown) =>
  new GatewayError(503, 'overloaded_error', 'GW_ERR_SHARED_STATE_UNAVAILABLE', {
    message: 'The gateway cannot reach its shared counters (quotas, wallets, rate limits) right now. Retry shortly.',
    code: 'service_unavailable',
    headers: { 'retry-after': '1' },
    cause,
  });

// Issue 15 (forgiving addresses): an unknown URL that is a known one without its version prefix.
export const routeNotFoundWithHint = (method: string, url: string, knownPath: string) =>
  new GatewayError(404, 'invalid_request_error', 'GW_ERR_ROUTE_NOT_FOUND', {
    message: `Unknown request URL: ${method} ${url}. Did you mean ${method} ${knownPath}? The base URL of your client probably lacks ${knownPath.slice(0, knownPath.length - url.length)}.`,
    code: 'unknown_url',
  });

// Metering writes (docs/failure-modes.md, "Metering writes").
export const meteringBacklogFull = (retryAfterSeconds: number) =>
  new GatewayError(503, 'overloaded_error', 'GW_ERR_METERING_BACKLOG', {
    message: `The gateway cannot record calls as fast as they finish right now (its database is slow or away), so it takes no new ones for the moment. Retry in ${retryAfterSeconds} s.`,
    code: 'service_unavailable',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

/** A request arriving on a kept-alive connection after the gateway began to stop (src/app.ts). */
export const shuttingDown = () =>
  new GatewayError(503, 'overloaded_error', 'GW_ERR_SHUTTING_DOWN', {
    message: 'The gateway is shutting down and takes no new requests. Retry in a moment.',
    code: 'service_unavailable',
    headers: { 'retry-after': '1', connection: 'close' },
  });

/** A non-streamed upstream answer over UPSTREAM_BODY_LIMIT: refused rather than buffered without bound. */
export const upstreamResponseTooLarge = (channel: string, cause: unknown) =>
  new GatewayError(502, 'upstream_error', 'GW_ERR_UPSTREAM_RESPONSE_TOO_LARGE', {
    message: `The upstream channel '${channel}' sent an answer larger than the gateway accepts (${(cause as Error).message.replace(/^the upstream answer is /, '')}). Ask for less (fewer inputs, a stream), or raise UPSTREAM_BODY_LIMIT.`,
    code: 'upstream_response_too_large',
    cause,
  });

/** A path segment (or a model id in the path) longer than the gateway accepts. */
export const urlPartTooLong = (limit: number) =>
  new GatewayError(414, 'invalid_request_error', 'GW_ERR_URL_TOO_LONG', { message: `A part of the request URL is longer than the gateway accepts (${limit} characters).`, code: 'uri_too_long' });

// Responses API ids: another user's id gets exactly what an unknown id gets, so ids cannot be probed.
export const previousResponseNotFound = (id: string) =>
  new GatewayError(404, 'invalid_request_error', 'GW_ERR_PREVIOUS_RESPONSE_NOT_FOUND', {
    message: `Previous response with id '${id.slice(0, 256)}' not found.`,
    param: 'previous_response_id',
    code: 'previous_response_not_found',
  });

export const responseNotFound = (id: string) =>
  new GatewayError(404, 'invalid_request_error', 'GW_ERR_RESPONSE_NOT_FOUND', {
    message: `No response found with id '${id.slice(0, 256)}'.`,
    code: 'response_not_found',
  });

export const itemNotFound = (id: string, param: string) =>
  new GatewayError(404, 'invalid_request_error', 'GW_ERR_ITEM_NOT_FOUND', {
    message: `Item with id '${id.slice(0, 256)}' not found.`,
    param,
    code: 'item_not_found',
  });

// An upstream refused the channel's own credentials: the client learns that, and nothing of the credential.
export const upstreamCredentialsRefused = (channel: string, status: number, upstreamCode: string | null) =>
  new GatewayError(502, 'upstream_error', 'GW_ERR_UPSTREAM_CREDENTIALS', {
    message: `The upstream channel '${channel}' refused the gateway's credentials (${status}${upstreamCode ? ` ${upstreamCode}` : ''}). The channel has been taken out of rotation and an administrator can see why; this is not a problem with your API key.`,
    code: 'upstream_credentials_refused',
  });

// ── Accounts and the /api surface (issue 12) ──

export const notSignedIn = () =>
  new GatewayError(401, 'authentication_error', 'GW_ERR_NOT_SIGNED_IN', {
    message: 'You are not signed in. Sign in, or send an API key as `Authorization: Bearer sk-…`.',
    code: 'not_signed_in',
  });

export const csrfTokenMissing = () =>
  new GatewayError(403, 'permission_error', 'GW_ERR_CSRF', {
    message: 'This request changes something, so it must carry the X-CSRF-Token header returned by sign-in and GET /api/me.',
    code: 'csrf_token_invalid',
  });

export const forbidden = (message: string, code = 'forbidden') =>
  new GatewayError(403, 'permission_error', 'GW_ERR_FORBIDDEN', { message, code });

export const apiNotFound = (what: string) =>
  new GatewayError(404, 'not_found_error', 'GW_ERR_NOT_FOUND', { message: `${what} does not exist.`, code: 'not_found' });

export const conflict = (message: string, param: string | null = null, code = 'conflict') =>
  new GatewayError(409, 'invalid_request_error', 'GW_ERR_CONFLICT', { message, param, code });

export const invalidCredentials = (message = 'The e-mail address or the password is wrong.', code = 'invalid_credentials') =>
  new GatewayError(401, 'authentication_error', 'GW_ERR_INVALID_CREDENTIALS', { message, code });

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new GatewayError(429, 'rate_limit_error', 'GW_ERR_TOO_MANY_ATTEMPTS', {
    message: `Too many failed attempts. Try again in ${retryAfterSeconds} s, or reset your password.`,
    code: 'too_many_attempts',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
