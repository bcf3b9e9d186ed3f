// The shared wallet (balance, a redemption code, a card top-up for owners and billing members) and the
// organisation's usage over 30 days, by member for owners and admins.
import { useState } from 'react';
import { Button, Group, NumberInput, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { canPay, organisationsApi, type Organisation } from '../../api/organisations-api.ts';
import { StatCard } from '../../components/StatCard.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { formatCount, formatUsd } from '../../components/format.ts';

export function OrganisationWallet({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [amount, setAmount] = useState<string | number>(10);
  const wallet = useQuery({ queryKey: ['org-wallet', organisation.id], queryFn: () => organisationsApi.wallet(organisation.id) });
  const redeem = useMutation({
    mutationFn: () => organisationsApi.redeem(organisation.id, code.trim()),
    onSuccess: (answer) => {
      notifications.show({ color: 'green', message: t('orgs.wallet.redeemed', { amount: formatUsd(answer.amount_usd) }) });
      setCode('');
      return queryClient.invalidateQueries({ queryKey: ['org-wallet', organisation.id] });
    },
  });
  const topUp = useMutation({ mutationFn: () => organisationsApi.topUp(organisation.id, Number(amount)), onSuccess: (answer) => window.location.assign(answer.checkout_url) });
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <StatCard label={t('orgs.balance')} value={formatUsd(wallet.data?.balance_usd)} />
        <StatCard label={t('orgs.wallet.usage')} value={formatUsd(wallet.data?.total_usage_usd)} />
      </SimpleGrid>
      {canPay(organisation.role) ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">{t('orgs.wallet.topUp')}</Title>
            <form onSubmit={(event) => { event.preventDefault(); topUp.mutate(); }}>
              <Group align="end">
                <NumberInput label={t('orgs.wallet.amount')} value={amount} onChange={setAmount} min={1} allowDecimal={false} prefix="$" w={160}
                  error={topUp.error instanceof Error ? topUp.error.message : undefined} />
                <Button type="submit" loading={topUp.isPending}>{t('orgs.wallet.pay')}</Button>
              </Group>
            </form>
          </Paper>
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">{t('orgs.wallet.code')}</Title>
            <form onSubmit={(event) => { event.preventDefault(); if (code.trim()) redeem.mutate(); }}>
              <Group align="end">
                <TextInput label={t('orgs.wallet.code')} value={code} onChange={(event) => setCode(event.currentTarget.value)} style={{ flex: 1 }}
                  error={redeem.error instanceof Error ? redeem.error.message : undefined} />
                <Button type="submit" loading={redeem.isPending}>{t('orgs.wallet.redeem')}</Button>
              </Group>
            </form>
          </Paper>
        </SimpleGrid>
      ) : <Text c="dimmed">{t('orgs.wallet.readOnly')}</Text>}
    </Stack>
  );
}

export function OrganisationUsage({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const stats = useQuery({ queryKey: ['org-stats', organisation.id], queryFn: () => organisationsApi.stats(organisation.id) });
  const members = useQuery({ queryKey: ['org-members', organisation.id], queryFn: () => organisationsApi.members(organisation.id) });
  const names = new Map((members.data ?? []).map((member) => [member.user_id, member.name]));
  return (
    <Stack>
      <Text c="dimmed">{stats.data?.scope === 'member' ? t('orgs.usage.mine') : t('orgs.usage.all')}</Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <StatCard label={t('orgs.usage.requests')} value={formatCount(stats.data?.totals.requests)} />
        <StatCard label={t('orgs.usage.errors')} value={formatCount(stats.data?.totals.errors)} />
        <StatCard label={t('orgs.usage.cost')} value={formatUsd(stats.data?.totals.costUsd)} />
      </SimpleGrid>
      <CardTable minWidth={480}>
        <Table striped aria-label={t('orgs.usage.byMember')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orgs.members.member')}</Table.Th>
              <Table.Th>{t('orgs.usage.requests')}</Table.Th>
              <Table.Th>{t('orgs.usage.cost')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(stats.data?.by_member ?? []).map((row) => (
              <Table.Tr key={row.member_user_id}>
                <Table.Td>{names.get(row.member_user_id) ?? `#${row.member_user_id}`}</Table.Td>
                <Table.Td>{formatCount(row.requests)}</Table.Td>
                <Table.Td>{formatUsd(row.cost_usd)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
    </Stack>
  );
}
