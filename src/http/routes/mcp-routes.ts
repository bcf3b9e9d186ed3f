// /mcp (every MCP server the key's group may use, tools prefixed server__tool) and /mcp/{server} (one
// server alone): the MCP Streamable HTTP transport, authenticated with the caller's sk- key as for /v1.
// Refusals before a session answers (no key, an unknown or forbidden server, an unknown session) are HTTP
// errors with a JSON-RPC error body; inside a session the SDK's transport answers. The SDK and the session
// machinery load with the first MCP request (src/mcp/mcp-endpoint.ts).
import type { Db } from '../../db/repositories/repository-helpers.ts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { RedisContext } from '../../cluster/redis-connection.ts';
import type { GatewayState } from '../../gateway-state.ts';
import type { Accounting } from '../../metering/accounting.ts';
import type { RateLimiter } from '../../metering/rate-limiter.ts';
import type { UsageRecorder } from '../../metering/usage-recorder.ts';
import { GatewayError, gatewayError } from '../../gateway-errors.ts';
import { mayUseServer, type McpScope } from '../../mcp/mcp-access.ts';
import { MCP_SERVER_NAME } from '../../config/mcp-server-schema.ts';
import type { McpEndpoint } from '../../mcp/mcp-endpoint.ts';
import { authenticateRequest } from '../authenticate.ts';
import { answerableError } from '../error-handler.ts';

interface McpRouteDeps {
  state: GatewayState;
  accounting: Accounting;
  rateLimiter: RateLimiter;
  recorder: UsageRecorder;
  logger: Logger;
  db: Db;
  /** Shared by the instances of a deployment: MCP sessions are served by any of them. */
  redis?: RedisContext | undefined;
}

/** Tool arguments can be large (a file to write), but not unbounded. */
const MCP_BODY_LIMIT = 4 * 1024 * 1024;

function serverNotFound(name: string): GatewayError {
  return gatewayError('GW_ERR_MCP_SERVER_NOT_FOUND', { message: `No MCP server '${name.slice(0, 64)}' is available to this key. GET /mcp lists the tools of the servers it may use.`, code: 'mcp_server_not_found' });
}

/** A refusal as MCP clients read it: the HTTP status, and a JSON-RPC error body with the gateway's details. */
async function sendJsonRpcError(reply: FastifyReply, error: GatewayError): Promise<void> {
  const { jsonRpcErrorOf } = await import('../../mcp/mcp-rpc-errors.ts');
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  // An MCP client that gets 401 looks for OAuth; this names the scheme it must use instead: its sk- key.
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="model-gateway", error="invalid_token"');
  await reply.code(error.status).header('content-type', 'application/json').send({ jsonrpc: '2.0', error: jsonRpcErrorOf(error), id: null });
}

export function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  let endpoint: Promise<McpEndpoint> | null = null;
  const loadEndpoint = () => {
    endpoint ??= import('../../mcp/mcp-endpoint.ts').then(({ createMcpEndpoint }) => createMcpEndpoint(deps));
    return endpoint;
  };
  // Open sessions hold SSE streams: closed first, so the server's close is not held for the grace period.
  app.addHook('preClose', async () => {
    if (endpoint) await (await endpoint).close();
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = authenticateRequest(deps.state, request);
    const param = (request.params as { server?: string }).server;
    let scope: McpScope = { kind: 'all' };
    if (param !== undefined) {
      // An unknown server, a disabled one and another group's answer alike.
      if (!MCP_SERVER_NAME.test(param) || !mayUseServer(key, deps.state.current.mcpServers.get(param))) throw serverNotFound(param);
      scope = { kind: 'one', server: param };
    }
    const header = request.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' && header.length > 0 ? header.slice(0, 200) : undefined;
    const mcp = await loadEndpoint();
    const { session, opened } = await mcp.sessionFor(key, scope, sessionId, request.method, request.body);
    // From here the SDK's transport writes the answer (JSON, or an SSE stream) on the raw response.
    reply.hijack();
    try {
      await session.transport.handleRequest(request.raw, reply.raw, request.body);
    } finally {
      await mcp.settle(session, opened, request.method, reply.raw.statusCode);
    }
  };

  const errorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const answer = answerableError(error, MCP_BODY_LIMIT, request.raw, reply.raw, request.log, request.id);
    if (reply.sent || reply.raw.headersSent) {
      request.log.warn({ err: error, requestId: request.id }, 'MCP request failed after its answer started');
      reply.raw.destroy();
      return;
    }
    return sendJsonRpcError(reply, answer);
  };

  for (const url of ['/mcp', '/mcp/:server']) {
    app.route({ method: ['GET', 'POST', 'DELETE'], url, bodyLimit: MCP_BODY_LIMIT, config: { errorFormat: 'openai-chat' }, errorHandler, handler });
  }
}
