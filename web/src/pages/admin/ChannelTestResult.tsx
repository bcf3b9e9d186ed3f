// The answer of a channel test, as the API gave it: ok with the latency, or the upstream's status and error
// (a refused key, a closed port). Shown under the channel's status until the next test, and as a toast.
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ChannelTestOutcome } from '../../api/admin-api.ts';

/**
 * The upstream's own words: the message inside its JSON error envelope ({"error":{"message"}} or
 * {"message"}), else the text as it came (a connection error). The server redacts keys from it.
 */
export function upstreamErrorText(error: string | null): string {
  if (!error) return 'no error text';
  try {
    const parsed = JSON.parse(error) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'object' ? parsed.error?.message : typeof parsed.error === 'string' ? parsed.error : parsed.message;
    if (typeof message === 'string' && message.trim()) return message;
  } catch { /* not JSON: a connection error or a cut body */ }
  return error;
}

/** One sentence a person can act on, as the API said it. */
function describeChannelTest(outcome: ChannelTestOutcome): string {
  if (outcome.ok) return `answered ${outcome.model} in ${outcome.latency_ms} ms${outcome.reenabled ? ', and is enabled again' : ''}.`;
  const status = outcome.status === null ? 'no answer' : `HTTP ${outcome.status}`;
  return `${outcome.model}: ${status} after ${outcome.latency_ms} ms: ${upstreamErrorText(outcome.error)}`;
}

export function announceChannelTest(outcome: ChannelTestOutcome): void {
  notifications.show({ color: outcome.ok ? 'green' : 'red', title: `${outcome.channel}: test ${outcome.ok ? 'passed' : 'failed'}`, message: describeChannelTest(outcome) });
}

export function ChannelTestResult({ outcome }: { outcome: ChannelTestOutcome | undefined }) {
  if (!outcome) return null;
  return (
    <Text size="xs" c={outcome.ok ? 'green.9' : 'red.9'} maw={320} style={{ wordBreak: 'break-word' }} data-testid="channel-test-result" role="status">
      {outcome.ok ? 'Test passed: ' : 'Test failed, '}
      {describeChannelTest(outcome)}
    </Text>
  );
}
