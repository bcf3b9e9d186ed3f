// Who may reach what: the servers a key's group may use (enabled ones only), and the tools its allowlist
// names. Tool and prompt names are prefixed with their server's name on /mcp (`files__read_file`); server
// names cannot hold `__`, so the first `__` splits a name back unambiguously.
import type { CachedKey } from '../accounts/key-index.ts';
import type { McpUpstream } from './mcp-upstream.ts';

const TOOL_SEPARATOR = '__';

/** Where a session was opened: `/mcp` (every server the key may use) or `/mcp/{server}` (that one alone, unprefixed). */
export type McpScope = { kind: 'all' } | { kind: 'one'; server: string };

function prefixed(server: string, name: string): string {
  return `${server}${TOOL_SEPARATOR}${name}`;
}

function splitPrefixed(name: string): { server: string; name: string } | null {
  const at = name.indexOf(TOOL_SEPARATOR);
  if (at <= 0 || at + TOOL_SEPARATOR.length >= name.length) return null;
  return { server: name.slice(0, at), name: name.slice(at + TOOL_SEPARATOR.length) };
}

export function mayUseServer(key: CachedKey, server: McpUpstream | undefined): server is McpUpstream {
  return server !== undefined && server.enabled && server.groups.has(key.groupName);
}

/** The servers the key reaches in a scope, in name order (a stable tools/list). */
export function visibleServers(servers: ReadonlyMap<string, McpUpstream>, key: CachedKey, scope: McpScope): McpUpstream[] {
  if (scope.kind === 'one') {
    const server = servers.get(scope.server);
    return mayUseServer(key, server) ? [server] : [];
  }
  return [...servers.values()].filter((server) => mayUseServer(key, server)).sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether the key's tool allowlist (if it has one) names this tool, or its whole server. */
export function toolAllowed(key: CachedKey, server: string, tool: string): boolean {
  if (key.mcpTools === null) return true;
  return key.mcpTools.has(prefixed(server, tool)) || key.mcpTools.has(prefixed(server, '*'));
}

/** The name a client sees for a server's tool or prompt in this scope. */
export function exposedName(scope: McpScope, server: string, name: string): string {
  return scope.kind === 'one' ? name : prefixed(server, name);
}

/** The server and upstream name a client's name stands for in this scope, or null when it names none. */
export function resolveExposedName(scope: McpScope, name: string): { server: string; name: string } | null {
  if (scope.kind === 'one') return name.length > 0 ? { server: scope.server, name } : null;
  return splitPrefixed(name);
}
