// One organisation: its members and invitations, its keys, its shared wallet and its usage. What a role
// cannot do is not shown (the server refuses it anyway).
import { Alert, Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { canManage, canPay, organisationsApi } from '../../api/organisations-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { OrganisationMembers } from './OrganisationMembers.tsx';
import { OrganisationKeys } from './OrganisationKeys.tsx';
import { OrganisationCalls, OrganisationUsage, OrganisationWallet } from './OrganisationMoney.tsx';

export default function OrganisationPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const org = useQuery({ queryKey: ['org', id], queryFn: () => organisationsApi.get(id) });
  if (org.isError) return <ErrorNotice error={org.error} />;
  const role = org.data?.role;
  // Back from card checkout (?payment=success|cancel): the wallet, where the credit shows once Stripe confirms it.
  const payment = params.get('payment');
  const tab = params.get('tab') ?? (payment ? 'wallet' : 'members');
  const seesWallet = canPay(role) || canManage(role);
  return (
    <Stack>
      <Group gap="sm" align="baseline">
        <Title order={1}>{org.data?.name ?? ''}</Title>
        {role ? <Badge variant="light">{t(`orgs.roles.${role}`)}</Badge> : null}
      </Group>
      {org.data ? <Text c="dimmed">{t('orgs.groupNote', { group: org.data.group })}</Text> : null}
      {payment === 'success' ? <Alert color="blue" role="status">{t('orgs.wallet.confirming')}</Alert> : null}
      {payment === 'cancel' ? <Alert color="yellow" role="status">{t('orgs.wallet.cancelled')}</Alert> : null}
      <Tabs value={tab} onChange={(value) => value && setParams({ tab: value })}>
        <Tabs.List>
          <Tabs.Tab value="members">{t('orgs.tabs.members')}</Tabs.Tab>
          <Tabs.Tab value="keys">{t('orgs.tabs.keys')}</Tabs.Tab>
          {seesWallet ? <Tabs.Tab value="wallet">{t('orgs.tabs.wallet')}</Tabs.Tab> : null}
          <Tabs.Tab value="usage">{t('orgs.tabs.usage')}</Tabs.Tab>
          <Tabs.Tab value="logs">{t('orgs.tabs.logs')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {org.data && tab === 'members' ? <OrganisationMembers organisation={org.data} /> : null}
      {org.data && tab === 'keys' ? <OrganisationKeys organisation={org.data} /> : null}
      {org.data && tab === 'wallet' && seesWallet ? <OrganisationWallet organisation={org.data} /> : null}
      {org.data && tab === 'usage' ? <OrganisationUsage organisation={org.data} /> : null}
      {org.data && tab === 'logs' ? <OrganisationCalls organisation={org.data} /> : null}
    </Stack>
  );
}
