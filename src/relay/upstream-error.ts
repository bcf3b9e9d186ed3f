// An upstream's error answer, rendered in the OpenAI envelope with a status the client can act on.
import { GatewayError } from '../gateway-errors.ts';
import { kindForStatus } from '../gateway-error-codes.ts';

/**
 * Upstream 401/403 mean the gateway's channel credentials were refused, not the client's key:
 * passing them on would tell the client its own key is bad, so they become 502.
 */
export function upstreamStatusForClient(status: number): number {
  if (status === 401 || status === 403) return 502;
  if (status < 400 || status > 599) return 502;
  return status;
}

/** Builds the gateway error for an upstream's non-2xx answer, keeping its message and code. */
export function gatewayErrorFromUpstream(channelName: string, status: number, bodyText: string): GatewayError {
  const clientStatus = upstreamStatusForClient(status);
  const detail = extractUpstreamMessage(bodyText);
  const message = status === 401 || status === 403
    ? `The upstream channel '${channelName}' refused the gateway's credentials (${status}): ${detail.message}`
    : detail.message || `The upstream channel '${channelName}' answered ${status}.`;
  return new GatewayError(clientStatus, kindForStatus(clientStatus), 'GW_ERR_UPSTREAM_STATUS', {
    message,
    code: detail.code,
    param: detail.param,
  });
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
