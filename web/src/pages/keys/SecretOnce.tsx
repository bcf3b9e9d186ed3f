import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** A new secret, shown once: the gateway keeps only its hash. */
export function SecretOnce({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Your new key" size="lg">
      <Stack>
        <Alert color="yellow">Copy it now: this is the only time the key is shown.</Alert>
        <Code block data-testid="new-key-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button onClick={copy} variant={copied ? 'light' : 'filled'}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Use it as the API key of any OpenAI, Anthropic or Gemini SDK, with this gateway's address as the base URL.
        </Text>
      </Stack>
    </Modal>
  );
}
