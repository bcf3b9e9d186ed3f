// The shape of a gateway MCP session and what it needs, apart from the code that opens one (mcp-session.ts),
// so the request handlers can name them without an import cycle.
import type { Logger } from 'pino';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CachedKey } from '../accounts/key-index.ts';
import type { GatewayState } from '../gateway-state.ts';
import type { McpScope } from './mcp-access.ts';
import type { McpMeterDeps } from './mcp-call-meter.ts';
import type { McpUpstream } from './mcp-upstream.ts';

/** Pages of an upstream's list read at most (a server answering cursors forever cannot hold a session). */
export const MAX_LIST_PAGES = 20;

export interface McpSessionDeps extends McpMeterDeps {
  state: GatewayState;
  logger: Logger;
}

export interface GatewaySession {
  readonly id: string;
  readonly keyId: number;
  readonly scope: McpScope;
  readonly transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** The key as it is now; a session whose key stopped working answers as if it did not exist. */
  currentKey(): CachedKey;
  /** The session's Client to this server, connected on first use; a failed connection is not kept. */
  upstream(server: McpUpstream): Promise<Client>;
  /** Forgets a Client after a failure (timeout, closed connection), so the next call reconnects. */
  dropUpstream(server: McpUpstream): void;
  close(): Promise<void>;
}

