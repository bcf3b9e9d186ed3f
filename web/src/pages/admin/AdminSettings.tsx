// Registration (open, closed, or open to listed e-mail domains), the groups users may choose for their keys
// (SelfServiceGroups.tsx), mail (AdminMailSettings.tsx) and the largest card top-up.
import { useEffect, useState } from 'react';
import { Anchor, Button, Group, NumberInput, Paper, SegmentedControl, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { fetchTopUpOptions } from '../../api/wallet-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';
import { AdminMailSettings } from './AdminMailSettings.tsx';
import { SelfServiceGroups } from './SelfServiceGroups.tsx';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';

const MAX_TOPUP_RULE = { integer: true, min: 1, max: 1_000_000, format: usdBound };

export default function AdminSettings() {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['admin', 'settings'], queryFn: adminApi.settings });
  const topup = useQuery({ queryKey: ['topup-options'], queryFn: fetchTopUpOptions });
  const [mode, setMode] = useState<'open' | 'closed' | 'domains'>('open');
  const [domains, setDomains] = useState('');
  const [maxTopUp, setMaxTopUp] = useState<number | string>(10_000);
  const [maxTopUpError, setMaxTopUpError] = useState<string | null>(null);
  const saveMaxTopUp = () => {
    const problem = numberProblem(maxTopUp, MAX_TOPUP_RULE);
    setMaxTopUpError(problem);
    if (problem === null) void runAdminAction(() => adminApi.putPaymentSettings(Number(maxTopUp)), 'Saved.', () => queryClient.invalidateQueries({ queryKey: ['topup-options'] }));
  };
  useEffect(() => {
    if (settings.data) {
      setMode(settings.data.registration.mode);
      setDomains(settings.data.registration.domains.join('\n'));
    }
  }, [settings.data]);
  useEffect(() => {
    if (topup.data) setMaxTopUp(topup.data.maxUsd);
  }, [topup.data]);
  // The domain field shows only in the listed-domains mode: in the others, what it holds (perhaps a typo
  // left from before) is not saved and cannot block the save; the stored list is kept as it was.
  const domainsToSave = () => (mode === 'domains' ? splitList(domains) : (settings.data?.registration.domains ?? []));
  if (settings.isError) return <ErrorNotice error={settings.error} />;
  return (
    <Stack maw={640}>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            Registration
          </Title>
          <SegmentedControl
            aria-label="Registration"
            value={mode}
            onChange={(value) => setMode(value as typeof mode)}
            data={[
              { value: 'open', label: 'Open' },
              { value: 'domains', label: 'Listed domains' },
              { value: 'closed', label: 'Closed' },
            ]}
          />
          {mode === 'domains' ? <Textarea label="E-mail domains" description="One per line, such as example.com." autosize minRows={2} value={domains} onChange={(event) => setDomains(event.currentTarget.value)} /> : null}
          <Button
            w="fit-content"
            onClick={() => void runAdminAction(() => adminApi.putRegistration({ mode, domains: domainsToSave() }), 'Registration settings saved.', () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] }))}
          >
            Save registration
          </Button>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <SelfServiceGroups current={settings.data?.self_service_groups} />
        <Stack>
          <Title order={2} size="h4">
            Public pricing page
          </Title>
          <Switch
            label="Show the pricing page to everyone"
            description={
              <>
                Models and their prices in each group users may pick, at <Anchor href="/pricing">/pricing</Anchor>, without signing in. Off, the address is Not Found.
              </>
            }
            checked={settings.data?.pricing_page.enabled ?? false}
            disabled={!settings.data}
            onChange={(event) => {
              const enabled = event.currentTarget.checked;
              void runAdminAction(() => adminApi.putPricingPage(enabled), enabled ? 'The pricing page is public.' : 'The pricing page is off.', () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] }));
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
            Card payments
          </Title>
          <Text size="sm">{topup.data?.enabled ? 'Stripe is configured.' : 'Stripe is not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); redemption codes still work.'}</Text>
          <Group align="flex-start">
            <NumberInput label="Largest top-up (USD)" description="Whole dollars, 1 to 1,000,000." {...exactNumberProps} value={maxTopUp} onChange={setMaxTopUp} error={maxTopUpError} w={220} />
            <Button variant="light" onClick={saveMaxTopUp} mt={47}>
              Save largest top-up
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
