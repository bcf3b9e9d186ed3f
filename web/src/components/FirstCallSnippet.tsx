// A first call to copy: curl against this gateway's own address, with one of the user's models.
import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

function firstCallCommand(origin: string, model: string): string {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] });
  return `curl ${origin}/v1/chat/completions \\\n  -H "Authorization: Bearer $GATEWAY_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '${body}'`;
}

export function FirstCallSnippet({ model }: { model: string }) {
  const { t } = useTranslation();
  const command = firstCallCommand(window.location.origin, model);
  return (
    <Stack gap={4} w="100%" maw={640} ta="left">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{t('empty.snippetHint')}</Text>
        <CopyButton value={command}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('common.copied') : t('common.copy')}>
              <ActionIcon variant="default" onClick={copy} aria-label={t('empty.copySnippet')}>
                {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block data-testid="first-call-snippet" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {command}
      </Code>
    </Stack>
  );
}
