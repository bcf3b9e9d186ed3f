// Resources and prompts pass through like tools: gathered from the servers the key's group may use, prompt
// names prefixed on /mcp, a server that fails left out of a list. Resource URIs are the servers' own (a
// client may meet them in tool results), so a read goes to the server that listed the URI in this session,
// or else to each server with resources in turn until one has it. Neither is logged or charged: the issue
// accounts tool calls.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema,
  type Prompt, type Resource, type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { gatewayError } from '../gateway-errors.ts';
import { exposedName, mayUseServer, resolveExposedName, visibleServers } from './mcp-access.ts';
import { McpUpstreamRpcError, upstreamError } from './mcp-upstream-client.ts';
import { toMcpError } from './mcp-rpc-errors.ts';
import { MAX_LIST_PAGES, type GatewaySession, type McpSessionDeps } from './mcp-session-types.ts';
import type { McpUpstream } from './mcp-upstream.ts';

/** URIs remembered per session for routing reads; beyond this, reads fall back to asking each server. */
const MAX_REMEMBERED_URIS = 10_000;

type Capability = 'resources' | 'prompts';

export function installCatalogHandlers(server: Server, deps: McpSessionDeps, session: GatewaySession): void {
  const resourceOwners = new Map<string, string>();

  /** Runs `list` on every visible server that has the capability; failures leave that server out (or fail a one-server session). */
  const gather = async <T>(capability: Capability, signal: AbortSignal, list: (client: Client, upstream: McpUpstream) => Promise<T[]>): Promise<T[]> => {
    const key = session.currentKey();
    const lists = await Promise.all(visibleServers(deps.state.current.mcpServers, key, session.scope).map(async (upstream) => {
      try {
        const client = await session.upstream(upstream);
        if (!client.getServerCapabilities()?.[capability] || signal.aborted) return [];
        return await list(client, upstream);
      } catch (error) {
        const failure = upstreamError(upstream, error);
        if (!(failure instanceof McpUpstreamRpcError)) session.dropUpstream(upstream);
        if (session.scope.kind === 'one') throw failure;
        deps.logger.warn({ server: upstream.name, capability, err: failure }, 'an MCP server failed to list; left out');
        return [];
      }
    }));
    return lists.flat();
  };

  const pages = async <T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await fetchPage(cursor);
      items.push(...answer.items);
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
    return items;
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    try {
      const resources = await gather<Resource>('resources', extra.signal, (client, upstream) => pages(async (cursor) => {
        const answer = await client.listResources(cursor ? { cursor } : undefined, { timeout: upstream.timeoutMs, signal: extra.signal });
        for (const resource of answer.resources) if (resourceOwners.size < MAX_REMEMBERED_URIS) resourceOwners.set(resource.uri, upstream.name);
        return { items: answer.resources, nextCursor: answer.nextCursor };
      }));
      return { resources };
    } catch (error) {
      throw toMcpError(error);
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => {
    try {
      const resourceTemplates = await gather<ResourceTemplate>('resources', extra.signal, (client, upstream) => pages(async (cursor) => {
        const answer = await client.listResourceTemplates(cursor ? { cursor } : undefined, { timeout: upstream.timeoutMs, signal: extra.signal });
        return { items: answer.resourceTemplates, nextCursor: answer.nextCursor };
      }));
      return { resourceTemplates };
    } catch (error) {
      throw toMcpError(error);
    }
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      const key = session.currentKey();
      const servers = deps.state.current.mcpServers;
      const owner = resourceOwners.get(request.params.uri);
      const candidates = owner !== undefined
        ? [servers.get(owner)].filter((upstream) => mayUseServer(key, upstream))
        : visibleServers(servers, key, session.scope);
      let lastError: unknown = null;
      for (const upstream of candidates) {
        try {
          const client = await session.upstream(upstream);
          if (!client.getServerCapabilities()?.resources) continue;
          return await client.readResource({ uri: request.params.uri }, { timeout: upstream.timeoutMs, signal: extra.signal });
        } catch (error) {
          lastError = upstreamError(upstream, error);
          if (!(lastError instanceof McpUpstreamRpcError)) session.dropUpstream(upstream);
        }
      }
      throw lastError ?? gatewayError('GW_ERR_MCP_TOOL_NOT_FOUND', { message: `Unknown resource: '${request.params.uri.slice(0, 200)}'.`, code: 'mcp_tool_not_found' });
    } catch (error) {
      throw toMcpError(error);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
    try {
      const prompts = await gather<Prompt>('prompts', extra.signal, (client, upstream) => pages(async (cursor) => {
        const answer = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: upstream.timeoutMs, signal: extra.signal });
        return { items: answer.prompts.map((prompt) => ({ ...prompt, name: exposedName(session.scope, upstream.name, prompt.name) })), nextCursor: answer.nextCursor };
      }));
      return { prompts };
    } catch (error) {
      throw toMcpError(error);
    }
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    try {
      const key = session.currentKey();
      const target = resolveExposedName(session.scope, request.params.name);
      const upstream = target ? deps.state.current.mcpServers.get(target.server) : undefined;
      if (!target || !mayUseServer(key, upstream)) throw gatewayError('GW_ERR_MCP_TOOL_NOT_FOUND', { message: `Unknown prompt: '${request.params.name.slice(0, 100)}'.`, code: 'mcp_tool_not_found' });
      try {
        const client = await session.upstream(upstream);
        return await client.getPrompt({ name: target.name, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) }, { timeout: upstream.timeoutMs, signal: extra.signal });
      } catch (error) {
        const failure = upstreamError(upstream, error);
        if (!(failure instanceof McpUpstreamRpcError)) session.dropUpstream(upstream);
        throw failure;
      }
    } catch (error) {
      throw toMcpError(error);
    }
  });
}
