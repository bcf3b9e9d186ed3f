// Upstream errors as GatewayErrors: the status is kept (a 429 stays a 429, a 400 keeps its message), and the
// kind follows the status so every format can render it in its own error shape.
import { type GatewayError, type GatewayErrorKind, gatewayError } from '../gateway-errors.ts';

interface UpstreamErrorInit {
  message: string;
  kind?: GatewayErrorKind;
  param?: string | null;
  code?: string | null;
  headers?: Record<string, string>;
}

/** An error an upstream answered with, as the gateway's own error type: its status kept, its kind the one
 * the upstream's envelope named (when the format reader knows it) or the status's. */
export function upstreamStatusError(status: number, init: UpstreamErrorInit): GatewayError {
  return gatewayError('GW_ERR_UPSTREAM_STATUS', { status, kind: init.kind, message: init.message, param: init.param ?? null, code: init.code ?? null, headers: init.headers ?? {} });
}

/** A 2xx upstream body that does not have the shape its format promises. */
export function upstreamPayloadError(format: string, detail: string): GatewayError {
  return gatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', {
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
