// Asks before a destructive or privilege change (a role, a status, two-factor, a deletion): what happens,
// in a sentence, and a button that says the action, not "OK".
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface PendingConfirmation {
  title: string;
  body: string;
  confirmLabel: string;
  /** Runs the change; the dialog closes when it settles (the change reports its own outcome). */
  run: () => Promise<unknown>;
}

export function ConfirmDialog({ pending, onClose }: { pending: PendingConfirmation | null; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const { t } = useTranslation();
  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await pending.run();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <Modal opened={pending !== null} onClose={onClose} title={pending?.title ?? ''}>
      <Stack>
        <Text>{pending?.body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('keys.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => void confirm()}>
            {pending?.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
