// Opens an SDK Client to an upstream MCP server: its transport (Streamable HTTP, or the older HTTP+SSE),
// its own credential (headers, or OAuth client credentials through the SDK's provider) added to every
// request, and every address it is sent to checked against private networks unless the server allows them.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { gatewayError, type GatewayError } from '../gateway-errors.ts';
import { addressesOf, isPrivateAddress } from '../upstream/private-network.ts';
import { loadMcpSdk } from './mcp-sdk.ts';
import type { McpUpstream } from './mcp-upstream.ts';
import { redactSecrets } from '../relay/redact-credentials.ts';
import { credentialValues } from './mcp-redact.ts';

const GATEWAY_CLIENT = { name: 'model-gateway', version: '1.0.0' };

function upstreamUnavailable(upstream: McpUpstream, why: string, cause?: unknown): GatewayError {
  return gatewayError('GW_ERR_MCP_UPSTREAM_UNAVAILABLE', { message: `The MCP server '${upstream.name}' ${why}`, code: 'mcp_upstream_unavailable', cause });
}

/** Refuses a URL whose host resolves to a private, loopback or link-local address, unless the server allows it. */
async function assertReachableAddress(upstream: McpUpstream, url: URL): Promise<void> {
  if (upstream.allowPrivateNetwork) return;
  let addresses: { address: string; family: number }[];
  try {
    addresses = await addressesOf(url.hostname);
  } catch (error) {
    throw upstreamUnavailable(upstream, `has a host that could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'DNS error'}).`, error);
  }
  if (addresses.some(({ address, family }) => isPrivateAddress(address, family))) {
    throw gatewayError('GW_ERR_MCP_UPSTREAM_UNAVAILABLE', {
      message: `The MCP server '${upstream.name}' is on a private network; an administrator must set allow_private_network for it.`,
      code: 'mcp_upstream_private_network',
    });
  }
}

/** fetch for the SDK's transports: every URL they request (the SSE transport's endpoint, redirects, OAuth discovery) is checked. */
function guardedFetch(upstream: McpUpstream): FetchLike {
  return async (url, init) => {
    await assertReachableAddress(upstream, new URL(String(url)));
    return fetch(url, init);
  };
}

export async function connectUpstream(upstream: McpUpstream): Promise<Client> {
  const url = new URL(upstream.url);
  await assertReachableAddress(upstream, url);
  const sdk = await loadMcpSdk();
  const credential = upstream.credential;
  const requestInit: RequestInit | undefined = credential && 'headers' in credential ? { headers: credential.headers } : undefined;
  const authProvider = credential && 'oauth' in credential
    ? new sdk.ClientCredentialsProvider({ clientId: credential.oauth.client_id, clientSecret: credential.oauth.client_secret, ...(credential.oauth.scope ? { scope: credential.oauth.scope } : {}), ...(credential.oauth.issuer ? { expectedIssuer: credential.oauth.issuer } : {}) })
    : undefined;
  const options = { fetch: guardedFetch(upstream), ...(requestInit ? { requestInit } : {}), ...(authProvider ? { authProvider } : {}) };
  const transport = upstream.transport === 'sse'
    ? new sdk.SSEClientTransport(url, options)
    // No reconnection: a server that died is reported by the call's timeout and reconnected on the next call.
    : new sdk.StreamableHTTPClientTransport(url, { ...options, reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 } });
  // No sampling, elicitation or roots capability: a server-initiated request could only reach the gateway,
  // not the user's client (whose session may be on another instance, or gone), so it is refused at once.
  const client = new sdk.Client(GATEWAY_CLIENT, { capabilities: {} });
  client.fallbackRequestHandler = async (request) => {
    throw new sdk.types.McpError(sdk.types.ErrorCode.MethodNotFound, `The model gateway does not relay requests from MCP servers to its clients ('${request.method.slice(0, 100)}'): sampling, elicitation and roots are not available through it.`);
  };
  try {
    await client.connect(transport, { timeout: upstream.timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw upstreamError(upstream, error);
  }
  return client;
}

/**
 * An upstream failure as the gateway's client sees it: a timeout, a server that could not be reached (its
 * message kept short and without the URL's secrets), or the upstream's own JSON-RPC error passed on.
 */
export function upstreamError(upstream: McpUpstream, error: unknown): GatewayError | McpUpstreamRpcError {
  if ((error as { gatewayCode?: string }).gatewayCode) return error as GatewayError;
  const code = (error as { code?: unknown }).code;
  // The SDK's own timeout (ErrorCode.RequestTimeout).
  if (code === -32001) return gatewayError('GW_ERR_MCP_UPSTREAM_TIMEOUT', { message: `The MCP server '${upstream.name}' did not answer within ${upstream.timeoutMs} ms.`, code: 'mcp_upstream_timeout', cause: error });
  if (code === -32000 && /closed/i.test(String((error as Error).message))) return upstreamUnavailable(upstream, 'closed the connection before answering.', error);
  // A JSON-RPC error the upstream itself answered (invalid params, unknown tool on its side): passed on as is.
  // Both messages may hold the server's answer, and a server may echo the credential it refused: redacted
  // here, since the message reaches every key holder of the group, their usage log and the admin test.
  const said = redactSecrets(String((error as Error).message ?? error), credentialValues(upstream));
  if (typeof code === 'number' && code < 0 && code > -33000 && (error as { name?: string }).name === 'McpError') return new McpUpstreamRpcError(code, said, (error as { data?: unknown }).data);
  const status = typeof code === 'number' && code >= 400 ? ` (HTTP ${code})` : '';
  return upstreamUnavailable(upstream, `could not be reached or failed${status}: ${said.slice(0, 200)}`, error);
}

/** The upstream's own JSON-RPC error, relayed with its code and message. */
export class McpUpstreamRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown) {
    super(message);
    this.name = 'McpUpstreamRpcError';
    this.code = code;
    this.data = data;
  }
}
