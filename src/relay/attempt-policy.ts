// How the relay treats each kind of upstream failure, and its default time budget. Documented for users
// in docs/failover.md; every number here is overridable per channel (timeouts) in the config file.
import { errors as undiciErrors } from '../upstream/undici-parts.ts';
import type { GatewayError } from '../gateway-errors.ts';
import type { FormatRefusal } from '../hub/hub-format.ts';

export const DEFAULT_TIMEOUTS = {
  /** Response headers of a streamed call: providers send them before generating. */
  streamHeadersMs: 30_000,
  /** Response headers of a non-streamed call: they come only after the whole answer is generated. */
  wholeHeadersMs: 300_000,
  /** From response headers to the first streamed event. */
  firstTokenMs: 60_000,
  /** Between two streamed events, and between body chunks of a non-streamed answer. */
  idleMs: 60_000,
} as const;

export const RETRY_POLICY = {
  /** Attempts for one call across every channel and fallback model. */
  maxAttempts: 6,
  /** A 429's Retry-After is honoured on the same channel only when it is this short. */
  maxRetryAfterMs: 5_000,
  /** Backoff before retrying the same channel (jittered: half to all of it). */
  backoffMs: 250,
} as const;

/**
 * - transient: connection refused, a 5xx: retry once on the same channel, then fail over;
 * - silent: a timeout: fail over at once, never wait on the same route twice;
 * - hung-up: the upstream took the request and closed the connection without an answer (reset, closed):
 *   fail over at once; the same channel is tried once more only when no other route is left (a
 *   keep-alive connection the upstream closed just as the request went out looks the same);
 * - rate-limited: a 429: wait Retry-After if short, else fail over;
 * - credentials: the channel's key is refused or out of credit: disable the channel, fail over;
 * - context-length: the prompt is too long for this model: a fallback model may take it;
 * - final: the request itself is wrong (400 and the like) or refused by policy: the client gets it.
 *
 * Context-length and content-policy refusals are recognised by the channel's format (its `refusalOf`,
 * src/formats/<format>/<format>-refusal.ts), each in its own envelope; this only decides what they mean.
 */
export type FailureKind = 'transient' | 'silent' | 'hung-up' | 'rate-limited' | 'credentials' | 'context-length' | 'final';

export function classifyUpstreamStatus(status: number, error: GatewayError, refusal: FormatRefusal | null = null): FailureKind {
  // A policy refusal says nothing about the channel's key or health, whatever status carried it.
  if (refusal === 'content-policy') return 'final';
  // A refusal of the channel's credentials the gateway recognised in the answer (a Google 400 naming an
  // invalid key): known by its gateway code, which only the gateway sets; an upstream's own `code` is its text.
  if (status === 401 || status === 403 || status === 402 || error.gatewayCode === 'GW_ERR_UPSTREAM_CREDENTIALS') return 'credentials';
  if (status === 429 && /insufficient_quota|billing/i.test((error.code ?? '') + error.message)) return 'credentials';
  if (status === 429) return 'rate-limited';
  if (status === 408 || status === 504) return 'silent';
  if (status >= 500) return 'transient';
  return refusal === 'context-length' ? 'context-length' : 'final';
}

/** Errors of the connection itself, before the request could be sent: the upstream is not there. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function classifyTransportError(error: unknown): FailureKind {
  // An answer over UPSTREAM_BODY_LIMIT: asking again would only buffer the same huge body again.
  if ((error as { code?: unknown } | null)?.code === 'GW_UPSTREAM_BODY_TOO_LARGE') return 'final';
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError || error instanceof undiciErrors.ConnectTimeoutError) return 'silent';
  const codes = errorCodes(error);
  if (codes.some((code) => CONNECT_FAILURES.has(code))) return 'transient';
  // undici's "other side closed" (UND_ERR_SOCKET), ECONNRESET, EPIPE: the request went out, no answer came.
  if (error instanceof undiciErrors.SocketError || codes.some((code) => HANG_UPS.has(code))) return 'hung-up';
  return 'transient';
}

const HANG_UPS = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** The `code` of an error and of its causes. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function jitteredBackoff(base: number = RETRY_POLICY.backoffMs): number {
  return base / 2 + Math.random() * (base / 2);
}
