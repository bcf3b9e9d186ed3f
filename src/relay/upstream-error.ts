// An upstream's error answer, rendered in the OpenAI envelope with a status the client can act on.
import { GatewayError, upstreamCredentialsRefused } from '../gateway-errors.ts';
import { kindForStatus } from '../gateway-error-codes.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { redactSecrets, refusesCredential } from './redact-credentials.ts';

/**
 * Upstream 401/403 mean the gateway's channel credentials were refused, not the client's key:
 * passing them on would tell the client its own key is bad, so they become 502.
 */
export function upstreamStatusForClient(status: number): number {
  if (status === 401 || status === 403) return 502;
  if (status < 400 || status > 599) return 502;
  return status;
}

/**
 * Builds the gateway error for an upstream's non-2xx answer, keeping its message and code, with any
 * credential redacted. A refusal of the channel's own credential tells the client only that, with the
 * upstream's error code: its message is exactly where upstreams echo the key. Pass the channel (not only
 * its name) so its own keys are redacted exactly, whatever their shape. `formatCode` is the code the
 * channel's format read from the answer (its headers included), used when the body names none.
 */
export function gatewayErrorFromUpstream(channel: string | Pick<RoutedChannel, 'name' | 'apiKeys'>, status: number, bodyText: string, formatCode: string | null = null): GatewayError {
  const channelName = typeof channel === 'string' ? channel : channel.name;
  const credentials = typeof channel === 'string' ? [] : channel.apiKeys;
  const detail = extractUpstreamMessage(bodyText);
  if (status === 401 || status === 403 || refusesCredential(bodyText)) {
    return upstreamCredentialsRefused(channelName, status, safeCode(detail.code ?? formatCode, credentials));
  }
  const clientStatus = upstreamStatusForClient(status);
  const message = detail.message ? redactSecrets(detail.message, credentials) : `The upstream channel '${channelName}' answered ${status}.`;
  return new GatewayError(clientStatus, kindForStatus(clientStatus), 'GW_ERR_UPSTREAM_STATUS', {
    message,
    code: safeCode(detail.code, credentials),
    param: detail.param === null ? null : redactSecrets(detail.param, credentials).slice(0, 200),
  });
}

/** The same error with its message and param redacted (for errors built by a format's own converter). */
export function redactUpstreamError(error: GatewayError, credentials: readonly string[]): GatewayError {
  const message = redactSecrets(error.message, credentials);
  const param = error.param === null ? null : redactSecrets(error.param, credentials);
  if (message === error.message && param === error.param) return error;
  return new GatewayError(error.status, error.kind, error.gatewayCode, { message, param, code: safeCode(error.code, credentials), headers: error.headers });
}

/** An upstream code is an identifier (invalid_api_key, API_KEY_INVALID); anything else is not passed on. */
function safeCode(code: string | null, credentials: readonly string[]): string | null {
  if (code === null || !/^[A-Za-z0-9_.]{1,64}$/.test(code)) return null;
  return redactSecrets(code, credentials) === code ? code : null;
}

interface UpstreamDetail { message: string; code: string | null; param: string | null }

/** Reads OpenAI, Anthropic and Google error bodies alike; falls back to the raw text. */
function extractUpstreamMessage(bodyText: string): UpstreamDetail {
  try {
    const body = JSON.parse(bodyText) as { error?: { message?: unknown; code?: unknown; param?: unknown; type?: unknown; status?: unknown } | string; message?: unknown };
    const error = body.error;
    if (typeof error === 'string') return { message: error, code: null, param: null };
    if (error && typeof error === 'object') {
      const code = typeof error.code === 'string' ? error.code : typeof error.status === 'string' ? error.status : typeof error.type === 'string' ? error.type : null;
      return {
        message: typeof error.message === 'string' ? error.message : bodyText.slice(0, 500),
        code,
        param: typeof error.param === 'string' ? error.param : null,
      };
    }
    if (typeof body.message === 'string') return { message: body.message, code: null, param: null };
  } catch {
    // Not JSON: an HTML error page from a proxy, say.
  }
  return { message: bodyText.slice(0, 500).trim(), code: null, param: null };
}
