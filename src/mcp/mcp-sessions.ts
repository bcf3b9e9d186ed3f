// The open gateway MCP sessions of this instance. Bounded: a key holds at most MCP_MAX_SESSIONS_PER_KEY
// at once (the next initialize is refused with 429), the instance at most maxTotal, and a session idle for
// idleMs is closed (its client gets 404 and initializes again, as the specification says). Sessions live in
// this process; with a directory (Redis, several instances) every session is recorded there, and one another
// instance opened is rebuilt here on its first request (mcp-session-directory.ts). The caps count the
// sessions this instance holds.
import type { CachedKey } from '../accounts/key-index.ts';
import { gatewayError } from '../gateway-errors.ts';
import type { McpScope } from './mcp-access.ts';
import type { McpSessionDirectory, SharedSessionBinding } from './mcp-session-directory.ts';
import { openGatewaySession, type GatewaySession, type McpSessionDeps } from './mcp-session.ts';

export interface McpSessionLimits {
  maxPerKey: number;
  maxTotal: number;
  idleMs: number;
}

export const DEFAULT_MCP_SESSION_LIMITS: McpSessionLimits = { maxPerKey: 32, maxTotal: 5_000, idleMs: 30 * 60_000 };

export interface McpSessions {
  /** The session with this id, if it is open (here or, with a directory, on another instance) and was opened by this key on this path. */
  find(id: string, key: CachedKey, scope: McpScope): Promise<GatewaySession | undefined>;
  /** Opens a session for an initialize with these params. */
  open(key: CachedKey, scope: McpScope, initialize: Record<string, unknown>): Promise<GatewaySession>;
  /** Closes a session and frees its place (an initialize that failed leaves one without an id). */
  discard(session: GatewaySession): Promise<void>;
  /** Ends a session on every instance (the client's DELETE). */
  end(session: GatewaySession): Promise<void>;
  readonly size: number;
  closeAll(): Promise<void>;
}

function sameScope(a: McpScope, b: McpScope): boolean {
  return a.kind === b.kind && (a.kind === 'all' || a.server === (b as { server: string }).server);
}

function tooManyForKey(held: number) {
  return gatewayError('GW_ERR_MCP_TOO_MANY_SESSIONS', { message: `This key holds ${held} MCP sessions, the most allowed at once. Close one (DELETE with its Mcp-Session-Id) or wait for an idle one to expire.`, code: 'mcp_too_many_sessions', headers: { 'retry-after': '60' } });
}

function instanceFull() {
  return gatewayError('GW_ERR_MCP_TOO_MANY_SESSIONS', { message: 'The gateway holds the most MCP sessions it allows at once. Retry shortly.', code: 'mcp_too_many_sessions', headers: { 'retry-after': '60' } });
}

export function createMcpSessions(deps: McpSessionDeps, limits: McpSessionLimits = DEFAULT_MCP_SESSION_LIMITS, directory?: McpSessionDirectory): McpSessions {
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
  /** Sessions of other instances being rebuilt here, so concurrent requests rebuild one. */
  const adopting = new Map<string, Promise<GatewaySession>>();
  const adopt = (id: string, key: CachedKey, binding: SharedSessionBinding): Promise<GatewaySession> => {
    const pending = adopting.get(id);
    if (pending) return pending;
    // The session exists already: it counts against the key's cap here but is not refused by it.
    perKey.set(key.id, (perKey.get(key.id) ?? 0) + 1);
    const rebuilt = openGatewaySession(deps, key, binding.scope, {
      onInitialized: (session) => {
        if (!closed.has(session)) byId.set(session.id, session);
      },
      onClosed: forget,
    }, { id, initialize: binding.initialize });
    adopting.set(id, rebuilt);
    rebuilt.then(() => adopting.delete(id), () => {
      adopting.delete(id);
      release(key.id);
    });
    return rebuilt;
  };
  const ownedBy = (session: { keyId: number; scope: McpScope }, key: CachedKey, scope: McpScope) => session.keyId === key.id && sameScope(session.scope, scope);
  return {
    async find(id, key, scope) {
      let session = byId.get(id);
      if (directory) {
        const binding = await directory.claim(id);
        if (binding === null) {
          // Ended on another instance (DELETE) or expired everywhere: this copy goes too.
          if (session) {
            forget(session);
            void session.close();
          }
          return undefined;
        }
        // Another key's session, or one opened on another path, is answered like an unknown one.
        if (binding && !ownedBy(binding, key, scope)) return undefined;
        if (!session && binding) {
          if (byId.size >= limits.maxTotal && !adopting.has(id)) throw instanceFull();
          try {
            session = await adopt(id, key, binding);
          } catch (error) {
            // The client initializes again, as after an expired session.
            deps.logger.warn({ err: error }, 'an MCP session of another instance could not be rebuilt here');
            return undefined;
          }
        }
      }
      if (!session || !ownedBy(session, key, scope)) return undefined;
      session.lastSeen = Date.now();
      return session;
    },
    async open(key, scope, initialize) {
      const held = perKey.get(key.id) ?? 0;
      if (held >= limits.maxPerKey) throw tooManyForKey(held);
      if (byId.size >= limits.maxTotal) throw instanceFull();
      perKey.set(key.id, held + 1);
      try {
        return await openGatewaySession(deps, key, scope, {
          onInitialized: async (session) => {
            if (closed.has(session)) return;
            byId.set(session.id, session);
            await directory?.share(session.id, { keyId: key.id, scope, initialize });
          },
          onClosed: forget,
        });
      } catch (error) {
        release(key.id);
        throw error;
      }
    },
    async end(session) {
      forget(session);
      await directory?.remove(session.id);
      await session.close();
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
