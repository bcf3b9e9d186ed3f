// tools/list and tools/call of a gateway session. The list gathers every server the key's group may use
// (prefixed names on /mcp), keeps the tools its allowlist names, and leaves out a server that fails (logged)
// rather than failing the whole list. A call is resolved to its server, checked (an unknown tool, another
// group's server and a tool outside the allowlist get the same answer), admitted (rate limit, reservation),
// relayed with the server's own credential under its timeout, and logged and charged either way; a refused
// call is logged too, at zero cost.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Progress, type ProgressToken, type ServerNotification, type ServerRequest, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { gatewayError, GatewayError } from '../gateway-errors.ts';
import { exposedName, mayUseServer, resolveExposedName, toolAllowed, visibleServers } from './mcp-access.ts';
import { admitToolCall, recordRefusedToolCall, recordToolCall } from './mcp-call-meter.ts';
import { McpUpstreamRpcError, upstreamError } from './mcp-upstream-client.ts';
import { toMcpError } from './mcp-rpc-errors.ts';
import { MAX_LIST_PAGES, type GatewaySession, type McpSessionDeps } from './mcp-session-types.ts';
import type { McpUpstream } from './mcp-upstream.ts';

const MAX_NAME_LENGTH = 300;

type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function toolNotFound(name: string) {
  return gatewayError('GW_ERR_MCP_TOOL_NOT_FOUND', { message: `Unknown tool: '${name.slice(0, 100)}'. tools/list shows the tools this key may call.`, code: 'mcp_tool_not_found' });
}

/** The upstream's tools, every page, under its timeout. */
async function upstreamTools(session: GatewaySession, upstream: McpUpstream, signal: AbortSignal): Promise<Tool[]> {
  const client = await session.upstream(upstream);
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await client.listTools(cursor ? { cursor } : undefined, { timeout: upstream.timeoutMs, signal });
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/**
 * When the client asked for progress (a progressToken in the call's _meta), the upstream is asked too (the
 * SDK gives it a token of its own) and each of its progress notifications goes to the client under the
 * client's token, on the stream answering the call. The call's timeout is not extended by progress.
 */
function progressRelay(token: ProgressToken | undefined, extra: ToolCallExtra): { onprogress?: (progress: Progress) => void } {
  if (token === undefined) return {};
  return {
    onprogress: (progress) => {
      extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
        .catch(() => {});
    },
  };
}

export function installToolHandlers(server: Server, deps: McpSessionDeps, session: GatewaySession): void {
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    try {
      const key = session.currentKey();
      const servers = visibleServers(deps.state.current.mcpServers, key, session.scope);
      const lists = await Promise.all(servers.map(async (upstream) => {
        try {
          const tools = await upstreamTools(session, upstream, extra.signal);
          return tools.filter((tool) => toolAllowed(key, upstream.name, tool.name))
            .map((tool) => ({ ...tool, name: exposedName(session.scope, upstream.name, tool.name) }));
        } catch (error) {
          const failure = upstreamError(upstream, error);
          if (!(failure instanceof McpUpstreamRpcError)) session.dropUpstream(upstream);
          // One server alone: its failure is the answer. Several: the others are still listed.
          if (session.scope.kind === 'one') throw failure;
          deps.logger.warn({ server: upstream.name, err: failure }, 'an MCP server failed to list its tools; left out of tools/list');
          return [];
        }
      }));
      return { tools: lists.flat() };
    } catch (error) {
      throw toMcpError(error);
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const startedAt = performance.now();
    const key = session.currentKey();
    const name = request.params.name;
    const args = request.params.arguments;
    const target = name.length <= MAX_NAME_LENGTH ? resolveExposedName(session.scope, name) : null;
    const upstream = target ? deps.state.current.mcpServers.get(target.server) : undefined;
    // Refused before any upstream is asked: logged (zero cost), as a refused model call is.
    const refused = (error: unknown, allowedUpstream: McpUpstream | undefined) => {
      recordRefusedToolCall(deps, { key, server: target?.server ?? null, tool: target?.name ?? name, upstream: allowedUpstream, arguments: args, startedAt, httpRequest: extra.requestInfo }, error);
      return toMcpError(error);
    };
    if (!target || !mayUseServer(key, upstream) || !toolAllowed(key, upstream.name, target.name)) throw refused(toolNotFound(name), undefined);
    let call;
    try {
      call = await admitToolCall(deps, key, upstream, target.name);
    } catch (error) {
      throw refused(error, upstream);
    }
    try {
      const client = await session.upstream(upstream);
      const result = await client.callTool({ name: target.name, ...(args !== undefined ? { arguments: args } : {}) }, undefined, { timeout: upstream.timeoutMs, signal: extra.signal, ...progressRelay(request.params._meta?.progressToken, extra) });
      recordToolCall(deps, call, { status: 200, error: result.isError ? 'the tool answered with isError: true' : null, errorCode: null, arguments: args, result });
      return result;
    } catch (error) {
      if (extra.signal.aborted) {
        recordToolCall(deps, call, { status: 499, error: 'the client cancelled the call', errorCode: 'GW_ERR_CLIENT_GONE', arguments: args, result: undefined });
        throw toMcpError(error);
      }
      const failure = upstreamError(upstream, error);
      if (!(failure instanceof McpUpstreamRpcError)) session.dropUpstream(upstream);
      const status = failure instanceof GatewayError ? failure.status : 502;
      recordToolCall(deps, call, { status, error: failure.message.slice(0, 500), errorCode: failure instanceof GatewayError ? failure.gatewayCode : null, arguments: args, result: undefined });
      throw toMcpError(failure);
    }
  });
}
