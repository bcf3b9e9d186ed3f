// The MCP client configurations the Keys page shows (docs/mcp.md). Plain functions without React, so the
// agent tests (test/agents/claude-code-mcp.test.ts, test/agents/codex-mcp.test.ts) run the real CLIs with
// exactly the text a user copies.

const KEY_PLACEHOLDER = 'sk-…your key…';

/** Claude Code: the `claude mcp add` command, then the same server as `.mcp.json`. */
export function claudeCodeMcpSnippet(url: string): string {
  return `claude mcp add --transport http gateway ${url} --header "Authorization: Bearer ${KEY_PLACEHOLDER}"\n\n`
    + `{ "mcpServers": { "gateway": { "type": "http", "url": "${url}",\n    "headers": { "Authorization": "Bearer ${KEY_PLACEHOLDER}" } } } }`;
}

/** Codex's `~/.codex/config.toml` table: Streamable HTTP, the key read from the GATEWAY_KEY environment variable. */
export function codexMcpSnippet(url: string): string {
  return `[mcp_servers.gateway]\nurl = "${url}"\nbearer_token_env_var = "GATEWAY_KEY"`;
}

/** Cursor's `~/.cursor/mcp.json` (untested: no Cursor CLI here). */
export function cursorMcpSnippet(url: string): string {
  return `{ "mcpServers": { "gateway": { "url": "${url}",\n    "headers": { "Authorization": "Bearer ${KEY_PLACEHOLDER}" } } } }`;
}
