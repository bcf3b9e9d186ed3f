// What /mcp and /mcp/{server} do with an authenticated request, apart from HTTP: find the caller's session
// (or open one for an initialize), and afterwards keep it (a session the transport created) or drop it (an
// initialize that failed). Created on the first MCP request, with the SDK (src/http/routes/mcp-routes.ts).
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { CachedKey } from '../accounts/key-index.ts';
import type { RedisContext } from '../cluster/redis-connection.ts';
import { gatewayError } from '../gateway-errors.ts';
import type { McpScope } from './mcp-access.ts';
import { createMcpPayloadLog, type McpPayloadLog } from './mcp-payload-log.ts';
import type { GatewaySession, McpSessionDeps } from './mcp-session.ts';
import { createMcpSessionDirectory, initializeParamsOf } from './mcp-session-directory.ts';
import { createMcpSessions, DEFAULT_MCP_SESSION_LIMITS, type McpSessionLimits, type McpSessions } from './mcp-sessions.ts';

const PAYLOAD_FLUSH_MS = 250;

interface McpEndpointDeps extends Omit<McpSessionDeps, 'payloads'> {
  db: Db;
  limits?: McpSessionLimits;
  /** Several instances: sessions are recorded in Redis, so any instance serves any session. */
  redis?: RedisContext | undefined;
}

export interface McpEndpoint {
  sessionFor(key: CachedKey, scope: McpScope, sessionId: string | undefined, method: string, body: unknown): Promise<{ session: GatewaySession; opened: boolean }>;
  /**
   * After the transport handled the request: a new session without an id (initialize failed) is closed,
   * and one the client ended (DELETE answered 200) is ended on every instance.
   */
  settle(session: GatewaySession, opened: boolean, method: string, status: number): Promise<void>;
  readonly sessions: McpSessions;
  readonly payloads: McpPayloadLog;
  close(): Promise<void>;
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === 'initialize');
}

export function createMcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const payloads = createMcpPayloadLog(deps.db, deps.logger, PAYLOAD_FLUSH_MS);
  const limits = deps.limits ?? DEFAULT_MCP_SESSION_LIMITS;
  const directory = deps.redis ? createMcpSessionDirectory(deps.redis, deps.logger, limits.idleMs) : undefined;
  const sessions = createMcpSessions({ ...deps, payloads }, limits, directory);
  return {
    sessions,
    payloads,
    async sessionFor(key, scope, sessionId, method, body) {
      if (sessionId !== undefined) {
        const session = await sessions.find(sessionId, key, scope);
        if (!session) throw gatewayError('GW_ERR_MCP_SESSION_NOT_FOUND', { message: 'Session not found: it expired, was closed, or belongs to another key or path. Initialize a new session.', code: 'mcp_session_not_found' });
        return { session, opened: false };
      }
      if (method !== 'POST' || !isInitialize(body)) {
        throw gatewayError('GW_ERR_MCP_SESSION_REQUIRED', { message: 'Bad Request: send initialize first, then the Mcp-Session-Id header it answered with on every request.', code: 'mcp_session_required' });
      }
      return { session: await sessions.open(key, scope, initializeParamsOf(body)), opened: true };
    },
    async settle(session, opened, method, status) {
      if (method === 'DELETE' && status === 200) return sessions.end(session);
      if (!opened) return;
      if (!session.transport.sessionId) await sessions.discard(session);
    },
    async close() {
      await sessions.closeAll();
      await payloads.close();
    },
  };
}
