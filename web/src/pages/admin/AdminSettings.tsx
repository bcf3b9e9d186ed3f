// Registration (open, closed, or open to listed e-mail domains), the groups users may choose for their keys
// (SelfServiceGroups.tsx), mail (AdminMailSettings.tsx) and the largest card top-up.
import { useState } from 'react';
import { useLoadedValue } from '../../components/use-loaded-value.ts';
import { Anchor, Button, Group, NumberInput, Paper, SegmentedControl, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { fetchTopUpOptions } from '../../api/wallet-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';
import { AdminMailSettings } from './AdminMailSettings.tsx';
import { SelfServiceGroups } from './SelfServiceGroups.tsx';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';
import { Trans, useTranslation } from 'react-i18next';

const MAX_TOPUP_RULE = { integer: true, min: 1, max: 1_000_000, format: usdBound };

export default function AdminSettings() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: ['admin', 'settings'], queryFn: adminApi.settings });
  const topup = useQuery({ queryKey: ['topup-options'], queryFn: fetchTopUpOptions });
  const [mode, setMode] = useLoadedValue<'open' | 'closed' | 'domains'>(settings.data?.registration.mode, 'open');
  const [domains, setDomains] = useLoadedValue(settings.data?.registration.domains.join('\n'), '');
  const [maxTopUp, setMaxTopUp] = useLoadedValue<number | string>(topup.data?.maxUsd, 10_000);
  const [maxTopUpError, setMaxTopUpError] = useState<string | null>(null);
  const saveMaxTopUp = () => {
    const problem = numberProblem(maxTopUp, MAX_TOPUP_RULE);
    setMaxTopUpError(problem);
    if (problem === null) void runAdminAction(() => adminApi.putPaymentSettings(Number(maxTopUp)), t('admin.settings.saved'), () => queryClient.invalidateQueries({ queryKey: ['topup-options'] }));
  };
  // The domain field shows only in the listed-domains mode: in the others, what it holds (perhaps a typo
  // left from before) is not saved and cannot block the save; the stored list is kept as it was.
  const domainsToSave = () => (mode === 'domains' ? splitList(domains) : (settings.data?.registration.domains ?? []));
  if (settings.isError) return <ErrorNotice error={settings.error} />;
  return (
    <Stack maw={640}>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            {t('admin.settings.registration')}
          </Title>
          <SegmentedControl
            aria-label={t('admin.settings.registration')}
            value={mode}
            onChange={(value) => setMode(value as typeof mode)}
            data={[
              { value: 'open', label: t('admin.settings.open') },
              { value: 'domains', label: t('admin.settings.listedDomains') },
              { value: 'closed', label: t('admin.settings.closed') },
            ]}
          />
          {mode === 'domains' ? <Textarea label={t('admin.settings.domains')} description={t('admin.settings.domainsHint')} autosize minRows={2} value={domains} onChange={(event) => setDomains(event.currentTarget.value)} /> : null}
          <Button
            w="fit-content"
            onClick={() => void runAdminAction(() => adminApi.putRegistration({ mode, domains: domainsToSave() }), t('admin.settings.registrationSaved'), () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] }))}
          >
            {t('admin.settings.saveRegistration')}
          </Button>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <SelfServiceGroups current={settings.data?.self_service_groups} />
        <Stack>
          <Title order={2} size="h4">
            {t('admin.settings.pricingTitle')}
          </Title>
          <Switch
            label={t('admin.settings.pricingSwitch')}
            description={
              <Trans i18nKey="admin.settings.pricingHint" components={{ link: <Anchor href="/pricing" /> }} />
            }
            checked={settings.data?.pricing_page.enabled ?? false}
            disabled={!settings.data}
            onChange={(event) => {
              const enabled = event.currentTarget.checked;
              void runAdminAction(() => adminApi.putPricingPage(enabled), enabled ? t('admin.settings.pricingOn') : t('admin.settings.pricingOff'), () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] }));
            }}
          />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <AdminMailSettings mail={settings.data?.mail} />
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            {t('admin.payments.title')}
          </Title>
          <Text size="sm">{topup.data?.enabled ? t('admin.settings.stripeOn') : t('admin.settings.stripeOff')}</Text>
          <Group align="flex-start">
            <NumberInput label={t('admin.settings.largest')} description={t('admin.settings.largestHint')} {...exactNumberProps} value={maxTopUp} onChange={setMaxTopUp} error={maxTopUpError} w={220} />
            <Button variant="light" onClick={saveMaxTopUp} mt={47}>
              {t('admin.settings.saveLargest')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
