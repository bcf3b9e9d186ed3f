// The gateway's MCP address and ready configuration for Claude Code, Codex and Cursor (issue 32): the same
// sk- key reaches the tools of every MCP server the key's group may use (docs/mcp.md).
import { Code, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { claudeCodeMcpSnippet, codexMcpSnippet, cursorMcpSnippet } from './mcp-snippet-texts.ts';

function mcpSnippets(origin: string, t: TFunction): { label: string; value: string; where: string; text: string }[] {
  const url = `${origin}/mcp`;
  return [
    { label: 'Claude Code', value: 'claude', where: t('mcp.whereClaude'), text: claudeCodeMcpSnippet(url) },
    { label: 'Codex', value: 'codex', where: t('mcp.whereCodex'), text: codexMcpSnippet(url) },
    { label: 'Cursor', value: 'cursor', where: t('mcp.whereCursor'), text: cursorMcpSnippet(url) },
  ];
}

export function McpSnippets() {
  const { t } = useTranslation();
  const snippets = mcpSnippets(window.location.origin, t);
  return (
    <Stack gap="xs" component="section" aria-label={t('mcp.title')}>
      <Title order={2}>{t('mcp.title')}</Title>
      <Text size="sm">
        {t('mcp.introBefore')} <Code>{window.location.origin}/mcp</Code> {t('mcp.introMiddle')} <Code>/mcp/name</Code>{t('mcp.introAfter')}
      </Text>
      <Tabs defaultValue="claude">
        <Tabs.List>
          {snippets.map((snippet) => (
            <Tabs.Tab key={snippet.value} value={snippet.value} lang="en">
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
