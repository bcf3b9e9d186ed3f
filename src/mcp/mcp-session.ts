// One gateway MCP session: the SDK Server and Streamable HTTP transport the client talks to, bound to the
// key that opened it and the path it was opened on, and the upstream Clients it opened (lazily, one per
// server it used; a session's upstream state is never shared with another key's). The key is looked up
// again for every request, so disabling it, changing its group or its allowlist applies at once.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CachedKey } from '../accounts/key-index.ts';
import { gatewayError } from '../gateway-errors.ts';
import type { McpScope } from './mcp-access.ts';
import { connectUpstream } from './mcp-upstream-client.ts';
import { installToolHandlers } from './mcp-tool-handlers.ts';
import { installCatalogHandlers } from './mcp-catalog-handlers.ts';
import type { GatewaySession, McpSessionDeps } from './mcp-session-types.ts';

export type { GatewaySession, McpSessionDeps } from './mcp-session-types.ts';

/** 32 random bytes: not guessable, and never derived from the key. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

interface SessionEvents {
  /** The transport gave the session its id (while answering initialize, before the client can use it). */
  onInitialized(session: GatewaySession): void | Promise<void>;
  onClosed(session: GatewaySession): void;
}

/** A session another instance opened, rebuilt here: its id and the initialize its client sent there. */
export interface AdoptedSession {
  id: string;
  initialize: Record<string, unknown>;
}

/** The SDK's web-standard transport inside the Node one: a rebuilt session's initialize is replayed on it. */
interface WebTransportInside {
  _webStandardTransport: { handleRequest(request: Request): Promise<Response> };
}

export async function openGatewaySession(deps: McpSessionDeps, key: CachedKey, scope: McpScope, events: SessionEvents, adopt?: AdoptedSession): Promise<GatewaySession> {
  const upstreams = new Map<string, { url: string; client: Promise<Client> }>();
  let closed = false;
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: adopt ? () => adopt.id : newSessionId,
    // Awaited by the transport before the answer carrying the id leaves (the id is shared with other instances first).
    onsessioninitialized: () => events.onInitialized(session),
  });
  const server = new Server(
    { name: 'model-gateway', version: '1.0.0' },
    { capabilities: { tools: { listChanged: false }, resources: {}, prompts: {} }, instructions: scope.kind === 'one' ? `The tools of the '${scope.server}' MCP server, through the model gateway.` : 'Tools of every MCP server your key may use, prefixed with the server name (server__tool), through the model gateway.' },
  );
  const session: GatewaySession = {
    // Set by the transport while it handles initialize; read only after that.
    get id() {
      return transport.sessionId!;
    },
    keyId: key.id,
    scope,
    transport,
    lastSeen: Date.now(),
    currentKey() {
      const current = deps.state.current.keys.byId(key.id);
      if (!current || !current.keyEnabled || !current.userEnabled || (current.expiresAt !== null && current.expiresAt <= Date.now())) {
        throw gatewayError('GW_ERR_MCP_SESSION_NOT_FOUND', { message: 'This MCP session is no longer valid: its key is disabled, expired or deleted.', code: 'mcp_session_not_found' });
      }
      return current;
    },
    upstream(upstream) {
      const cached = upstreams.get(upstream.name);
      // A server whose address changed since the session connected is reconnected.
      if (cached && cached.url === upstream.url) return cached.client;
      const client = connectUpstream(upstream);
      upstreams.set(upstream.name, { url: upstream.url, client });
      client.catch(() => {
        if (upstreams.get(upstream.name)?.client === client) upstreams.delete(upstream.name);
      });
      return client;
    },
    dropUpstream(upstream) {
      const cached = upstreams.get(upstream.name);
      if (!cached) return;
      upstreams.delete(upstream.name);
      cached.client.then((client) => client.close(), () => {}).catch(() => {});
    },
    async close() {
      if (closed) return;
      closed = true;
      const clients = [...upstreams.values()];
      upstreams.clear();
      await Promise.allSettled(clients.map(async ({ client }) => (await client).close()));
      await transport.close().catch(() => {});
    },
  };
  installToolHandlers(server, deps, session);
  installCatalogHandlers(server, deps, session);
  transport.onclose = () => {
    events.onClosed(session);
    void session.close();
  };
  server.onerror = (error) => deps.logger.debug({ err: error }, 'MCP session error');
  await server.connect(transport);
  if (adopt) {
    try {
      await replayInitialize(transport, adopt);
    } catch (error) {
      // Never registered: closed without telling the caller's bookkeeping, which frees its place on the throw.
      transport.onclose = undefined;
      await session.close();
      throw error;
    }
  }
  return session;
}

/**
 * Puts a rebuilt session in the state its client left it in on the other instance: the client's own
 * initialize goes through the transport (which takes the session's id) and the Server (which records the
 * client's capabilities and version), and the answer, already given once, is dropped. Through the SDK's
 * web-standard transport, which the Node transport wraps (pinned SDK version; test/e2e/mcp-scale-out.test.ts).
 */
async function replayInitialize(transport: StreamableHTTPServerTransport, adopt: AdoptedSession): Promise<void> {
  const inner = (transport as unknown as WebTransportInside)._webStandardTransport;
  const answer = await inner.handleRequest(new Request('http://gateway.internal/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: adopt.initialize }),
  }));
  await answer.text();
  if (transport.sessionId !== adopt.id) throw new Error(`the MCP session could not be rebuilt (HTTP ${answer.status})`);
}
