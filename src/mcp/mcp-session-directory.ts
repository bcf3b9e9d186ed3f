// Which MCP sessions exist across the instances sharing one Redis, so any instance can serve a session
// another opened (issue 32). An instance that opens a session writes its binding here (the key that opened
// it, the path, and the client's initialize parameters); an instance that gets a request for a session it
// does not hold reads the binding, checks the caller against it, and rebuilds the session locally with the
// same id (mcp-session.ts): the gateway's sessions hold no state a request needs beyond that, and the
// upstream connections are opened again on first use, as after a dropped one.
//
// One Redis round trip per MCP request (GETEX): it also refreshes the idle expiry, so a session used on
// any instance stays alive everywhere, and a session ended by DELETE on one instance is unknown on all of
// them at the next request. Ids are stored hashed: whoever reads Redis cannot present them.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { RedisContext } from '../cluster/redis-connection.ts';
import type { McpScope } from './mcp-access.ts';

export interface SharedSessionBinding {
  keyId: number;
  scope: McpScope;
  /** The client's initialize params, replayed to rebuild the session on another instance. */
  initialize: Record<string, unknown>;
}

export interface McpSessionDirectory {
  /** Records a new session; awaited before its id reaches the client, so another instance can find it at once. */
  share(id: string, binding: SharedSessionBinding): Promise<void>;
  /** The binding (and its idle expiry refreshed); null when no instance holds the session; undefined when Redis did not answer. */
  claim(id: string): Promise<SharedSessionBinding | null | undefined>;
  /** Ends a session on every instance (DELETE). */
  remove(id: string): Promise<void>;
}

/** Initialize params larger than this are stored without the client's capabilities (a client sends a few hundred bytes). */
const MAX_INITIALIZE_BYTES = 8 * 1024;

export function initializeParamsOf(body: unknown): Record<string, unknown> {
  const messages = Array.isArray(body) ? body : [body];
  const initialize = messages.find((message) => (message as { method?: unknown } | null)?.method === 'initialize') as { params?: unknown } | undefined;
  const params = initialize?.params && typeof initialize.params === 'object' ? initialize.params as Record<string, unknown> : {};
  if (JSON.stringify(params).length <= MAX_INITIALIZE_BYTES) return params;
  return { protocolVersion: params.protocolVersion, capabilities: {}, clientInfo: { name: 'unknown', version: '0' } };
}

export function createMcpSessionDirectory(redis: RedisContext, logger: Logger, idleMs: number): McpSessionDirectory {
  const keyOf = (id: string) => `${redis.prefix}mcp:session:${createHash('sha256').update(id).digest('base64url')}`;
  return {
    async share(id, binding) {
      await redis.redis.set(keyOf(id), JSON.stringify(binding), 'PX', idleMs)
        .catch((error: unknown) => logger.warn({ err: error }, 'sharing an MCP session over Redis failed: other instances will not know it'));
    },
    async claim(id) {
      try {
        const stored = await redis.redis.getex(keyOf(id), 'PX', idleMs);
        return stored === null ? null : JSON.parse(stored) as SharedSessionBinding;
      } catch (error) {
        logger.warn({ err: error }, 'reading an MCP session from Redis failed: only this instance\'s sessions are served');
        return undefined;
      }
    },
    async remove(id) {
      await redis.redis.del(keyOf(id)).catch((error: unknown) => logger.warn({ err: error }, 'removing an MCP session from Redis failed; it expires when idle'));
    },
  };
}
