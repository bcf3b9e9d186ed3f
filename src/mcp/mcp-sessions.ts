// The open gateway MCP sessions of this instance. Bounded: a key holds at most MCP_MAX_SESSIONS_PER_KEY
// at once (the next initialize is refused with 429), the instance at most maxTotal, and a session idle for
// idleMs is closed (its client gets 404 and initializes again, as the specification says). Sessions live in
// this process: behind a load balancer, route by the Mcp-Session-Id header (docs/mcp.md).
import type { CachedKey } from '../accounts/key-index.ts';
import { gatewayError } from '../gateway-errors.ts';
import type { McpScope } from './mcp-access.ts';
import { openGatewaySession, type GatewaySession, type McpSessionDeps } from './mcp-session.ts';

export interface McpSessionLimits {
  maxPerKey: number;
  maxTotal: number;
  idleMs: number;
}

export const DEFAULT_MCP_SESSION_LIMITS: McpSessionLimits = { maxPerKey: 32, maxTotal: 5_000, idleMs: 30 * 60_000 };

export interface McpSessions {
  /** The session with this id, if it is open and was opened by this key on this path. */
  find(id: string, key: CachedKey, scope: McpScope): GatewaySession | undefined;
  open(key: CachedKey, scope: McpScope): Promise<GatewaySession>;
  /** Closes a session and frees its place (an initialize that failed leaves one without an id). */
  discard(session: GatewaySession): Promise<void>;
  readonly size: number;
  closeAll(): Promise<void>;
}

function sameScope(a: McpScope, b: McpScope): boolean {
  return a.kind === b.kind && (a.kind === 'all' || a.server === (b as { server: string }).server);
}

export function createMcpSessions(deps: McpSessionDeps, limits: McpSessionLimits = DEFAULT_MCP_SESSION_LIMITS): McpSessions {
  const byId = new Map<string, GatewaySession>();
  /** Sessions being opened or open, per key, so concurrent initializes cannot pass the cap together. */
  const perKey = new Map<number, number>();
  const release = (keyId: number) => {
    const left = (perKey.get(keyId) ?? 1) - 1;
    if (left <= 0) perKey.delete(keyId);
    else perKey.set(keyId, left);
  };
  const closed = new WeakSet<GatewaySession>();
  const forget = (session: GatewaySession) => {
    if (closed.has(session)) return;
    closed.add(session);
    if (byId.get(session.id) === session) byId.delete(session.id);
    release(session.keyId);
  };
  const sweeper = setInterval(() => {
    const idleSince = Date.now() - limits.idleMs;
    for (const session of byId.values()) {
      if (session.lastSeen < idleSince) {
        forget(session);
        void session.close();
      }
    }
  }, Math.min(60_000, Math.max(1_000, Math.floor(limits.idleMs / 4))));
  sweeper.unref();
  return {
    find(id, key, scope) {
      const session = byId.get(id);
      // Another key's session, or one opened on another path, is answered like an unknown one.
      if (!session || session.keyId !== key.id || !sameScope(session.scope, scope)) return undefined;
      session.lastSeen = Date.now();
      return session;
    },
    async open(key, scope) {
      const held = perKey.get(key.id) ?? 0;
      if (held >= limits.maxPerKey) {
        throw gatewayError('GW_ERR_MCP_TOO_MANY_SESSIONS', { message: `This key holds ${held} MCP sessions, the most allowed at once. Close one (DELETE with its Mcp-Session-Id) or wait for an idle one to expire.`, code: 'mcp_too_many_sessions', headers: { 'retry-after': '60' } });
      }
      if (byId.size >= limits.maxTotal) {
        throw gatewayError('GW_ERR_MCP_TOO_MANY_SESSIONS', { message: 'The gateway holds the most MCP sessions it allows at once. Retry shortly.', code: 'mcp_too_many_sessions', headers: { 'retry-after': '60' } });
      }
      perKey.set(key.id, held + 1);
      try {
        return await openGatewaySession(deps, key, scope, {
          onInitialized: (session) => {
            if (!closed.has(session)) byId.set(session.id, session);
          },
          onClosed: forget,
        });
      } catch (error) {
        release(key.id);
        throw error;
      }
    },
    async discard(session) {
      forget(session);
      await session.close();
    },
    get size() {
      return byId.size;
    },
    async closeAll() {
      clearInterval(sweeper);
      const all = [...byId.values()];
      for (const session of all) forget(session);
      await Promise.allSettled(all.map((session) => session.close()));
    },
  };
}
