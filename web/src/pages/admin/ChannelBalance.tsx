// A channel's balance at its upstream, read when asked (each check calls the upstream): the amount left,
// or why there is none to show (the upstream has no balance API, or refused).
import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { adminOpsApi, type ChannelBalance } from '../../api/admin-ops-api.ts';
import { formatUsd } from '../../components/format.ts';
import { errorText } from '../../i18n/error-text.ts';
import { i18n } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';

function describeBalance(balance: ChannelBalance) {
  if (!balance.available) {
    return (
      <>
        {i18n.t('admin.balance.notAvailable')}
        <span lang="en">{balance.reason}</span>
      </>
    );
  }
  const parts = [
    balance.limit_usd !== null ? i18n.t('admin.balance.of', { amount: formatUsd(balance.limit_usd) }) : null,
    balance.used_usd !== null ? i18n.t('admin.balance.used', { amount: formatUsd(balance.used_usd) }) : null,
  ].filter(Boolean);
  return i18n.t(parts.length > 0 ? 'admin.balance.leftWith' : 'admin.balance.left', { amount: formatUsd(balance.balance_usd), parts: parts.join(i18n.t('admin.balance.comma')) });
}

export function ChannelBalanceCell({ channelId, channelName }: { channelId: number; channelName: string }) {
  const [balance, setBalance] = useState<ChannelBalance | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const { t } = useTranslation();
  const check = async () => {
    setChecking(true);
    setProblem(null);
    try {
      setBalance(await adminOpsApi.balance(channelId));
    } catch (error) {
      setProblem(errorText(error));
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
      <Button size="compact-xs" variant="subtle" loading={checking} onClick={() => void check()} aria-label={t('admin.balance.checkNamed', { name: channelName })}>
        {balance ? t('admin.balance.again') : t('admin.balance.check')}
      </Button>
    </Stack>
  );
}
