// Upstream errors as GatewayErrors: the status is kept (a 429 stays a 429, a 400 keeps its message), and the
// kind follows the status so every format can render it in its own error shape.
import { GatewayError, type GatewayErrorKind } from '../gateway-errors.ts';

export function kindForStatus(status: number): GatewayErrorKind {
  if (status === 400 || status === 422) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 408 || status === 504) return 'timeout_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status >= 500) return 'server_error';
  return 'upstream_error';
}

export interface UpstreamErrorInit {
  message: string;
  kind?: GatewayErrorKind;
  param?: string | null;
  code?: string | null;
  headers?: Record<string, string>;
}

/** An error an upstream answered with, as the gateway's own error type. */
export function upstreamStatusError(status: number, init: UpstreamErrorInit): GatewayError {
  return new GatewayError(status, init.kind ?? kindForStatus(status), 'GW_ERR_UPSTREAM_STATUS', {
    message: init.message,
    param: init.param ?? null,
    code: init.code ?? null,
    headers: init.headers ?? {},
  });
}

/** A 2xx upstream body that does not have the shape its format promises. */
export function upstreamPayloadError(format: string, detail: string): GatewayError {
  return new GatewayError(502, 'upstream_error', 'GW_ERR_UPSTREAM_BAD_RESPONSE', {
    message: `The upstream sent a ${format} response the gateway could not read: ${detail}`,
    code: 'upstream_bad_response',
  });
}

/** An error body may arrive as text or already parsed; this gives parsed JSON when it is JSON. */
export function errorBodyJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** When the body is not in the format's error shape, a message from its text or the status. */
export function fallbackErrorMessage(status: number, body: unknown): string {
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 500);
  return `The upstream answered with HTTP status ${status}.`;
}

export interface RenderedFormatError {
  status: number;
  /** JSON text, ready to send. */
  body: string;
  headers?: Record<string, string>;
}
