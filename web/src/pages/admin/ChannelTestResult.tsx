// The answer of a channel test, as the API gave it: ok with the latency, or the upstream's status and error
// (a refused key, a closed port). Shown under the channel's status until the next test, and as a toast.
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import type { ChannelTestOutcome } from '../../api/admin-api.ts';
import { i18n } from '../../i18n/i18n.ts';

/**
 * The upstream's own words: the message inside its JSON error envelope ({"error":{"message"}} or
 * {"message"}), else the text as it came (a connection error). The server redacts keys from it.
 */
export function upstreamErrorText(error: string | null): string {
  if (!error) return i18n.t('admin.test.noErrorText');
  try {
    const parsed = JSON.parse(error) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'object' ? parsed.error?.message : typeof parsed.error === 'string' ? parsed.error : parsed.message;
    if (typeof message === 'string' && message.trim()) return message;
  } catch { /* not JSON: a connection error or a cut body */ }
  return error;
}

/** One sentence a person can act on, as the API said it (the upstream's own words stay as they came). */
function describeChannelTest(outcome: ChannelTestOutcome): ReactNode {
  if (outcome.ok) return i18n.t(outcome.reenabled ? 'admin.test.answeredReenabled' : 'admin.test.answered', { model: outcome.model, ms: outcome.latency_ms });
  const status = outcome.status === null ? i18n.t('admin.noAnswer') : `HTTP ${outcome.status}`;
  return (
    <>
      {i18n.t('admin.test.failedAfter', { model: outcome.model, status, ms: outcome.latency_ms })}
      <span lang="en">{upstreamErrorText(outcome.error)}</span>
    </>
  );
}

export function announceChannelTest(outcome: ChannelTestOutcome): void {
  notifications.show({ color: outcome.ok ? 'green' : 'red', title: i18n.t(outcome.ok ? 'admin.test.passedTitle' : 'admin.test.failedTitle', { channel: outcome.channel }), message: describeChannelTest(outcome) });
}

export function ChannelTestResult({ outcome }: { outcome: ChannelTestOutcome | undefined }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  return (
    <Text size="xs" c={outcome.ok ? 'green.9' : 'red.9'} maw={320} style={{ wordBreak: 'break-word' }} data-testid="channel-test-result" role="status">
      {outcome.ok ? t('admin.test.passed') : t('admin.test.failed')}
      {describeChannelTest(outcome)}
    </Text>
  );
}
