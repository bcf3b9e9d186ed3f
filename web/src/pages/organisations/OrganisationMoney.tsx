// The shared wallet (balance, a redemption code, a card top-up for owners and billing members) and the
// organisation's usage over 30 days, by member for owners and admins.
import { useState } from 'react';
import { Badge, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { canManage, canPay, organisationsApi, type Organisation } from '../../api/organisations-api.ts';
import { StatCard } from '../../components/StatCard.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { formatCount, formatDateTime, formatUsd } from '../../components/format.ts';

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

/** The latest 50 calls: every member's for owners and admins (with a member filter), else those of my keys. */
export function OrganisationCalls({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const [member, setMember] = useState<string | null>(null);
  const manager = canManage(organisation.role);
  const members = useQuery({ queryKey: ['org-members', organisation.id], queryFn: () => organisationsApi.members(organisation.id), enabled: manager });
  const calls = useQuery({ queryKey: ['org-logs', organisation.id, member], queryFn: () => organisationsApi.logs(organisation.id, member === null ? null : Number(member)) });
  return (
    <Stack>
      {manager ? (
        <Select label={t('orgs.logs.member')} placeholder={t('orgs.logs.everyone')} clearable value={member} onChange={setMember} w={260}
          data={(members.data ?? []).map((row) => ({ value: String(row.user_id), label: row.name }))} />
      ) : <Text c="dimmed">{t('orgs.logs.mine')}</Text>}
      <CardTable minWidth={560}>
        <Table striped aria-label={t('orgs.tabs.logs')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orgs.logs.time')}</Table.Th>
              <Table.Th>{t('orgs.keys.name')}</Table.Th>
              <Table.Th>{t('orgs.logs.model')}</Table.Th>
              <Table.Th>{t('orgs.logs.status')}</Table.Th>
              <Table.Th>{t('orgs.usage.cost')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(calls.data ?? []).map((call) => (
              <Table.Tr key={call.id}>
                <Table.Td>{formatDateTime(call.created_at)}</Table.Td>
                <Table.Td>{call.key_name ?? '—'}</Table.Td>
                <Table.Td>{call.model}</Table.Td>
                <Table.Td><Badge variant="light" color={call.status < 400 ? 'green' : 'red'}>{call.status}</Badge></Table.Td>
                <Table.Td>{formatUsd(call.cost_usd)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
    </Stack>
  );
}
