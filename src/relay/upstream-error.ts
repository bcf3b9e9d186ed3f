// An upstream's error answer as a gateway error: read by the channel's own format (its envelope is the
// format's, on every endpoint of its API family), with a status the client can act on and every credential
// of the channel redacted. The one reader for every hop: the same upstream 400 reads the same way whether
// the call was passed through or translated.
import { gatewayError, restated, upstreamCredentialsRefused, type GatewayError } from '../gateway-errors.ts';
import type { UpstreamErrorHeaders } from '../hub/hub-format.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { redactSecrets, refusesCredential } from './redact-credentials.ts';

/**
 * Upstream 401/403 mean the gateway's channel credentials were refused, not the client's key:
 * passing them on would tell the client its own key is bad, so they become 502.
 */
function upstreamStatusForClient(status: number): number {
  if (status === 401 || status === 403) return 502;
  if (status < 400 || status > 599) return 502;
  return status;
}

type ErrorReadingChannel = Pick<RoutedChannel, 'name' | 'apiKeys' | 'chatFormat'>;

/**
 * The gateway error for an upstream's non-2xx answer, keeping its message and code. A refusal of the
 * channel's own credential (a 401 or 403, or a body that names one: Bedrock's InvalidSignatureException)
 * tells the client only that, with the upstream's error code: its message is exactly where upstreams echo
 * the key. `headers` are the answer's own, for a format that names its error there.
 */
export function gatewayErrorFromUpstream(channel: ErrorReadingChannel, status: number, bodyText: string, headers?: UpstreamErrorHeaders): GatewayError {
  // The text, not parsed JSON: a format whose envelope it is not falls back to showing the text itself.
  const read = channel.chatFormat.errorToHub(status, bodyText, headers);
  const credentials = channel.apiKeys;
  if (status === 401 || status === 403 || refusesCredential(bodyText)) {
    return upstreamCredentialsRefused(channel.name, status, safeCode(read.code, credentials));
  }
  const clientStatus = upstreamStatusForClient(status);
  const message = read.message.trim() === '' ? `The upstream channel '${channel.name}' answered ${status}.` : redactSecrets(read.message, credentials);
  const param = read.param === null ? null : redactSecrets(read.param, credentials).slice(0, 200);
  const code = safeCode(read.code, credentials);
  if (clientStatus === read.status) {
    return message === read.message && param === read.param && code === read.code ? read : restated(read, { message, param, code, headers: read.headers });
  }
  // An upstream status no client should act on as it stands (a 3xx or a 600): the gateway's own 502.
  return gatewayError('GW_ERR_UPSTREAM_STATUS', { status: clientStatus, message, param, code, headers: read.headers });
}

/** An upstream code is an identifier (invalid_api_key, API_KEY_INVALID); anything else is not passed on. */
function safeCode(code: string | null, credentials: readonly string[]): string | null {
  if (code === null || !/^[A-Za-z0-9_.]{1,64}$/.test(code)) return null;
  return redactSecrets(code, credentials) === code ? code : null;
}
