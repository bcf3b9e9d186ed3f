// A channel's balance at its upstream, read when asked (each check calls the upstream): the amount left,
// or why there is none to show (the upstream has no balance API, or refused).
import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { adminOpsApi, type ChannelBalance } from '../../api/admin-ops-api.ts';
import { formatUsd } from '../../components/format.ts';

function describeBalance(balance: ChannelBalance): string {
  if (!balance.available) return `Not available: ${balance.reason}`;
  const parts = [balance.limit_usd !== null ? `of ${formatUsd(balance.limit_usd)}` : null, balance.used_usd !== null ? `${formatUsd(balance.used_usd)} used` : null].filter(Boolean);
  return `${formatUsd(balance.balance_usd)} left${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

export function ChannelBalanceCell({ channelId, channelName }: { channelId: number; channelName: string }) {
  const [balance, setBalance] = useState<ChannelBalance | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const check = async () => {
    setChecking(true);
    setProblem(null);
    try {
      setBalance(await adminOpsApi.balance(channelId));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The balance could not be read.');
    }
    setChecking(false);
  };
  return (
    <Stack gap={2} align="flex-start">
      {balance ? (
        <Text size="sm" c={balance.available ? undefined : 'dimmed'} maw={220} data-testid="channel-balance" style={{ wordBreak: 'break-word' }}>
          {describeBalance(balance)}
        </Text>
      ) : null}
      {problem ? (
        <Text size="xs" c="red.9" role="alert">
          {problem}
        </Text>
      ) : null}
      <Button size="compact-xs" variant="subtle" loading={checking} onClick={() => void check()} aria-label={`Check the balance of ${channelName}`}>
        {balance ? 'Check again' : 'Check balance'}
      </Button>
    </Stack>
  );
}
