import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A new secret, shown once: the gateway keeps only its hash. */
export function SecretOnce({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={t('secret.title')} size="lg">
      <Stack>
        <Alert color="yellow">{t('secret.copyNow')}</Alert>
        <Code block data-testid="new-key-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button onClick={copy} variant={copied ? 'light' : 'filled'}>
                {copied ? t('common.copied') : t('secret.copyKey')}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            {t('secret.done')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('secret.howToUse')}
        </Text>
      </Stack>
    </Modal>
  );
}
