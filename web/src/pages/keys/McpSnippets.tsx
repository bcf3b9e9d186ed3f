// The gateway's MCP address and ready configuration for Claude Code, Codex and Cursor (issue 32): the same
// sk- key reaches the tools of every MCP server the key's group may use (docs/mcp.md).
import { Code, Stack, Tabs, Text, Title } from '@mantine/core';

function mcpSnippets(origin: string): { label: string; value: string; where: string; text: string }[] {
  const url = `${origin}/mcp`;
  return [
    { label: 'Claude Code', value: 'claude', where: 'Run once (or put the JSON in .mcp.json):', text: `claude mcp add --transport http gateway ${url} --header "Authorization: Bearer sk-…your key…"\n\n{ "mcpServers": { "gateway": { "type": "http", "url": "${url}",\n    "headers": { "Authorization": "Bearer sk-…your key…" } } } }` },
    { label: 'Codex', value: 'codex', where: '~/.codex/config.toml (the key in the GATEWAY_KEY environment variable):', text: `[mcp_servers.gateway]\nurl = "${url}"\nbearer_token_env_var = "GATEWAY_KEY"` },
    { label: 'Cursor', value: 'cursor', where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project):', text: `{ "mcpServers": { "gateway": { "url": "${url}",\n    "headers": { "Authorization": "Bearer sk-…your key…" } } } }` },
  ];
}

export function McpSnippets() {
  const snippets = mcpSnippets(window.location.origin);
  return (
    <Stack gap="xs" component="section" aria-label="MCP tools">
      <Title order={2}>MCP tools</Title>
      <Text size="sm">
        Your key also reaches the team's MCP tool servers at <Code>{window.location.origin}/mcp</Code> (one server alone: <Code>/mcp/name</Code>). Tools are named server__tool.
      </Text>
      <Tabs defaultValue="claude">
        <Tabs.List>
          {snippets.map((snippet) => (
            <Tabs.Tab key={snippet.value} value={snippet.value}>
              {snippet.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {snippets.map((snippet) => (
          <Tabs.Panel key={snippet.value} value={snippet.value} pt="xs">
            <Text size="sm">{snippet.where}</Text>
            <Code block>{snippet.text}</Code>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
