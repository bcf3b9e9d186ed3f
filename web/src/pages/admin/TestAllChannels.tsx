// "Test all channels": every channel tested at once by the server (a few at a time), each result shown in
// its row as the single Test shows it, and a summary. Channels the gateway disabled itself that pass are
// turned back on; one an administrator disabled stays disabled.
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { adminOpsApi } from '../../api/admin-ops-api.ts';
import type { ChannelTestOutcome } from '../../api/admin-api.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';

export function TestAllChannels({ onResults }: { onResults: (results: Record<number, ChannelTestOutcome>) => unknown }) {
  const [running, setRunning] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const { t } = useTranslation();
  const run = async () => {
    setRunning(true);
    try {
      const answer = await adminOpsApi.testAll(true);
      await onResults(Object.fromEntries(answer.data.map((result) => [result.channel_id, result])));
      const reenabled = answer.data.filter((result) => result.reenabled).length;
      const text = [
        t('admin.testAll.passedFailed', { passed: answer.passed, failed: answer.failed }),
        reenabled > 0 ? t('admin.testAll.reenabled', { count: reenabled }) : '',
        answer.skipped.length > 0 ? t('admin.testAll.skipped', { count: answer.skipped.length }) : '',
        t('admin.testAll.end'),
      ].join('');
      setSummary(text);
      notifications.show({ color: answer.failed === 0 ? 'green' : 'red', title: t('admin.testAll.title'), message: text });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    }
    setRunning(false);
  };
  return (
    <>
      <Button variant="light" loading={running} onClick={() => void run()}>
        {t('admin.testAll.button')}
      </Button>
      {summary ? (
        <Text size="sm" role="status" data-testid="test-all-summary">
          {summary}
        </Text>
      ) : null}
    </>
  );
}
