// Every error the gateway raises itself: one stable code, an HTTP status and a message a user can act on.
// Each wire format renders these in its own error shape (src/formats/<format>/*-error.ts; src/http for OpenAI).
// Every code is declared once, with its status, kind and client codes, in src/gateway-error-codes.ts, and
// an error is built from its code alone: gatewayError() here is the one place that constructs one.
import { GATEWAY_ERRORS, kindForStatus, type ClientCodeOf, type DeclaredError, type GatewayErrorCode, type GatewayErrorKind, type UpstreamStatusCode } from './gateway-error-codes.ts';

export type { GatewayErrorKind };

/** What a caller says about an error: its texts, never its status or kind. */
interface GatewayErrorText<ClientCode extends string = string> {
  message: string;
  /** The request field at fault, for 400s: `messages[0].role`. */
  param?: string | null;
  /** The OpenAI-style error code clients switch on: `model_not_found`, `invalid_api_key`, … */
  code?: ClientCode | null;
  /** Response headers the error needs, such as Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** An upstream's error keeps its status; its kind follows the status unless the upstream's envelope named
 * one the gateway knows (OpenAI's `type`, Anthropic's, Google's status name): that one is passed on. */
interface UpstreamStatusText extends GatewayErrorText<string> {
  status: number;
  kind?: GatewayErrorKind;
}

/** The texts an error of code C takes: its `code` one of C's declared client codes. */
type GatewayErrorInit<C extends GatewayErrorCode> = C extends UpstreamStatusCode ? UpstreamStatusText : GatewayErrorText<ClientCodeOf<C>>;

export class GatewayError extends Error {
  readonly status: number;
  readonly kind: GatewayErrorKind;
  /** Stable and greppable: GW_ERR_…, declared in gateway-error-codes.ts; logged and stored, never parsed by clients. */
  readonly gatewayCode: GatewayErrorCode;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers: Record<string, string>;

  /** Use gatewayError(code, texts): status and kind belong to the code (a test keeps `new` in this file). */
  constructor(status: number, kind: GatewayErrorKind, gatewayCode: GatewayErrorCode, init: GatewayErrorText) {
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

/**
 * The error declared as `gatewayCode`, with the status and kind the catalogue gives it. Only an upstream's
 * error (GW_ERR_UPSTREAM_STATUS) takes a status from the caller. Nothing is allocated beyond the error.
 */
export function gatewayError<C extends GatewayErrorCode>(gatewayCode: C, init: GatewayErrorInit<C>): GatewayError {
  const declared: DeclaredError = GATEWAY_ERRORS[gatewayCode];
  if (declared.status === 'upstream') {
    const { status, kind } = init as UpstreamStatusText;
    return new GatewayError(status, kind ?? kindForStatus(status), gatewayCode, init);
  }
  return new GatewayError(declared.status, declared.kind as GatewayErrorKind, gatewayCode, init);
}

/** The same error (code, status, kind) with its texts replaced: cut to length, or redacted. */
export function restated(error: GatewayError, text: GatewayErrorText): GatewayError {
  return new GatewayError(error.status, error.kind, error.gatewayCode, text);
}

/** A client's value quoted in an error message, cut to a readable length: a 15 MB model name must not
 * come back as a 15 MB error. */
export function quoteInput(value: string, max = 200): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

export const invalidRequest = (message: string, param: string | null = null, code: ClientCodeOf<'GW_ERR_INVALID_REQUEST'> | null = null) =>
  gatewayError('GW_ERR_INVALID_REQUEST', { message, param, code });

/** A prompt over the model's context window, in the words the caller's own provider uses (its format chooses them). */
export const contextLengthExceeded = (message: string, param: string | null) =>
  gatewayError('GW_ERR_CONTEXT_LENGTH', { message, param, code: 'context_length_exceeded' });

export const invalidJson = (detail: string) =>
  gatewayError('GW_ERR_INVALID_JSON', {
    message: `We could not parse the JSON body of your request: ${detail}`,
    code: 'invalid_json',
  });

export const bodyTooLarge = (limitBytes: number) =>
  gatewayError('GW_ERR_BODY_TOO_LARGE', {
    message: `The request body is larger than the limit of ${limitBytes} bytes.`,
    code: 'request_too_large',
  });

export const missingApiKey = () =>
  gatewayError('GW_ERR_MISSING_KEY', {
    message: 'You did not provide an API key. Send it as `Authorization: Bearer sk-…`.',
    code: 'missing_api_key',
  });

export const invalidApiKey = () =>
  gatewayError('GW_ERR_INVALID_KEY', {
    message: 'Incorrect API key provided. Use a key issued by this gateway.',
    code: 'invalid_api_key',
  });

export const expiredApiKey = () =>
  gatewayError('GW_ERR_EXPIRED_KEY', {
    message: 'This API key has expired. Create a new key or extend its expiry.',
    code: 'expired_api_key',
  });

export const disabledApiKey = () =>
  gatewayError('GW_ERR_DISABLED_KEY', {
    message: 'This API key has been disabled.',
    code: 'invalid_api_key',
  });

export const disabledUser = () =>
  gatewayError('GW_ERR_DISABLED_USER', {
    message: 'The account that owns this API key is disabled.',
    code: 'account_disabled',
  });

export const ipNotAllowed = (ip: string) =>
  gatewayError('GW_ERR_IP_NOT_ALLOWED', {
    message: `Requests from ${ip} are not allowed for this API key.`,
    code: 'ip_not_allowed',
  });

export const modelNotAllowed = (model: string) =>
  gatewayError('GW_ERR_MODEL_NOT_ALLOWED', {
    message: `This API key is not allowed to use the model '${quoteInput(model)}'.`,
    param: 'model',
    code: 'model_not_allowed',
  });

export const modelNotFound = (model: string) =>
  gatewayError('GW_ERR_MODEL_NOT_FOUND', {
    message: `The model '${quoteInput(model)}' does not exist or no channel serves it.`,
    param: 'model',
    code: 'model_not_found',
  });

export const routeNotFound = (method: string, url: string) =>
  gatewayError('GW_ERR_ROUTE_NOT_FOUND', {
    message: `Unknown request URL: ${quoteInput(method, 20)} ${quoteInput(url)}.`,
    code: 'unknown_url',
  });

export const upstreamUnreachable = (channel: string, cause: unknown) =>
  (cause as { code?: unknown } | null)?.code === 'GW_UPSTREAM_BODY_TOO_LARGE'
    ? upstreamResponseTooLarge(channel, cause)
    : gatewayError('GW_ERR_UPSTREAM_UNREACHABLE', {
      message: `The upstream channel '${channel}' could not be reached.`,
      code: 'upstream_unreachable',
      cause,
    });

export const upstreamTimeout = (channel: string, phase: string) =>
  gatewayError('GW_ERR_UPSTREAM_TIMEOUT', {
    message: `The upstream channel '${channel}' did not answer in time (${phase}).`,
    code: 'upstream_timeout',
  });

export const internalError = (cause: unknown) =>
  gatewayError('GW_ERR_INTERNAL', {
    message: 'The gateway hit an internal error. It has been logged.',
    code: 'internal_error',
    cause,
  });

export const modelPriceMissing = (model: string) =>
  gatewayError('GW_ERR_MODEL_PRICE_MISSING', {
    message: `The model '${quoteInput(model)}' has no price configured, so it cannot be billed. An operator must set its price or mark it free.`,
    param: 'model',
    code: 'model_price_missing',
  });

const QUOTA_MESSAGES = {
  wallet: 'Your balance is too low for this request. Top up your wallet, or lower max_tokens.',
  key: "This API key's quota is used up, or too low for this request. Raise the key's quota, or lower max_tokens.",
  member_cap: "Your monthly spending cap in this organisation is used up, or too low for this request. Ask an organisation admin to raise it, or lower max_tokens.",
};

export const insufficientQuota = (what: 'wallet' | 'key' | 'member_cap') =>
  gatewayError('GW_ERR_INSUFFICIENT_QUOTA', {
    message: QUOTA_MESSAGES[what],
    code: 'insufficient_quota',
    headers: { 'x-should-retry': 'false' },
  });

export const rateLimited = (limit: 'rpm' | 'tpm', subject: string, retryAfterSeconds: number) =>
  gatewayError('GW_ERR_RATE_LIMITED', {
    message: `Rate limit reached: ${limit === 'rpm' ? 'requests' : 'tokens'} per minute for this ${subject.startsWith('user:') ? 'account' : 'API key'}. Try again in ${retryAfterSeconds} s.`,
    code: 'rate_limit_exceeded',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const modelUnavailable = (model: string) =>
  gatewayError('GW_ERR_MODEL_UNAVAILABLE', {
    message: `Every channel serving '${quoteInput(model)}' is disabled right now. An administrator has been told; try again later.`,
    param: 'model',
    code: 'model_unavailable',
  });

export const sharedStateUnavailable = (cause: unknown) =>
  gatewayError('GW_ERR_SHARED_STATE_UNAVAILABLE', {
    message: 'The gateway cannot reach its shared counters (quotas, wallets, rate limits) right now. Retry shortly.',
    code: 'service_unavailable',
    headers: { 'retry-after': '1' },
    cause,
  });

// Issue 15 (forgiving addresses): an unknown URL that is a known one without its version prefix.
export const routeNotFoundWithHint = (method: string, url: string, knownPath: string) =>
  gatewayError('GW_ERR_ROUTE_NOT_FOUND', {
    message: `Unknown request URL: ${method} ${url}. Did you mean ${method} ${knownPath}? The base URL of your client probably lacks ${knownPath.slice(0, knownPath.length - url.length)}.`,
    code: 'unknown_url',
  });

// Metering writes (docs/failure-modes.md, "Metering writes").
export const meteringBacklogFull = (retryAfterSeconds: number) =>
  gatewayError('GW_ERR_METERING_BACKLOG', {
    message: `The gateway cannot record calls as fast as they finish right now (its database is slow or away), so it takes no new ones for the moment. Retry in ${retryAfterSeconds} s.`,
    code: 'service_unavailable',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

/** A request arriving on a kept-alive connection after the gateway began to stop (src/app.ts). */
export const shuttingDown = () =>
  gatewayError('GW_ERR_SHUTTING_DOWN', {
    message: 'The gateway is shutting down and takes no new requests. Retry in a moment.',
    code: 'service_unavailable',
    headers: { 'retry-after': '1', connection: 'close' },
  });

/** A non-streamed upstream answer over UPSTREAM_BODY_LIMIT: refused rather than buffered without bound. */
const upstreamResponseTooLarge = (channel: string, cause: unknown) =>
  gatewayError('GW_ERR_UPSTREAM_RESPONSE_TOO_LARGE', {
    message: `The upstream channel '${channel}' sent an answer larger than the gateway accepts (${(cause as Error).message.replace(/^the upstream answer is /, '')}). Ask for less (fewer inputs, a stream), or raise UPSTREAM_BODY_LIMIT.`,
    code: 'upstream_response_too_large',
    cause,
  });

/** A path segment (or a model id in the path) longer than the gateway accepts. */
export const urlPartTooLong = (limit: number) =>
  gatewayError('GW_ERR_URL_TOO_LONG', { message: `A part of the request URL is longer than the gateway accepts (${limit} characters).`, code: 'uri_too_long' });

// Responses API ids: another user's id gets exactly what an unknown id gets, so ids cannot be probed.
export const previousResponseNotFound = (id: string) =>
  gatewayError('GW_ERR_PREVIOUS_RESPONSE_NOT_FOUND', {
    message: `Previous response with id '${id.slice(0, 256)}' not found.`,
    param: 'previous_response_id',
    code: 'previous_response_not_found',
  });

export const responseNotFound = (id: string) =>
  gatewayError('GW_ERR_RESPONSE_NOT_FOUND', {
    message: `No response found with id '${id.slice(0, 256)}'.`,
    code: 'response_not_found',
  });

export const itemNotFound = (id: string, param: string) =>
  gatewayError('GW_ERR_ITEM_NOT_FOUND', {
    message: `Item with id '${id.slice(0, 256)}' not found.`,
    param,
    code: 'item_not_found',
  });

// An upstream refused the channel's own credentials: the client learns that, and nothing of the credential.
export const upstreamCredentialsRefused = (channel: string, status: number, upstreamCode: string | null) =>
  gatewayError('GW_ERR_UPSTREAM_CREDENTIALS', {
    message: `The upstream channel '${channel}' refused the gateway's credentials (${status}${upstreamCode ? ` ${upstreamCode}` : ''}). The channel has been taken out of rotation and an administrator can see why; this is not a problem with your API key.`,
    code: 'upstream_credentials_refused',
  });

// ── Accounts and the /api surface (issue 12) ──

export const notSignedIn = () =>
  gatewayError('GW_ERR_NOT_SIGNED_IN', {
    message: 'You are not signed in. Sign in, or send an API key as `Authorization: Bearer sk-…`.',
    code: 'not_signed_in',
  });

export const csrfTokenMissing = () =>
  gatewayError('GW_ERR_CSRF', {
    message: 'This request changes something, so it must carry the X-CSRF-Token header returned by sign-in and GET /api/me.',
    code: 'csrf_token_invalid',
  });

export const forbidden = (message: string, code: ClientCodeOf<'GW_ERR_FORBIDDEN'> = 'forbidden') =>
  gatewayError('GW_ERR_FORBIDDEN', { message, code });

export const apiNotFound = (what: string) =>
  gatewayError('GW_ERR_NOT_FOUND', { message: `${what} does not exist.`, code: 'not_found' });

export const conflict = (message: string, param: string | null = null, code: ClientCodeOf<'GW_ERR_CONFLICT'> = 'conflict') =>
  gatewayError('GW_ERR_CONFLICT', { message, param, code });

export const invalidCredentials = (message = 'The e-mail address or the password is wrong.', code: ClientCodeOf<'GW_ERR_INVALID_CREDENTIALS'> = 'invalid_credentials') =>
  gatewayError('GW_ERR_INVALID_CREDENTIALS', { message, code });

export const tooManyAttempts = (retryAfterSeconds: number) =>
  gatewayError('GW_ERR_TOO_MANY_ATTEMPTS', {
    message: `Too many failed attempts. Try again in ${retryAfterSeconds} s, or reset your password.`,
    code: 'too_many_attempts',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
