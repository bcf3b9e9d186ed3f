import { useState } from 'react';
import { Button, NumberInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { meQueryKey, type Me } from '../../api/session.ts';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';

/** As /api/me/settings checks them: an alert in whole cents up to $1,000,000; a warning 1 to 365 days ahead. */
const LOW_BALANCE_RULE = { optional: true, min: 0, max: 1_000_000, decimals: 2, format: usdBound };
const EXPIRY_DAYS_RULE = { optional: true, integer: true, min: 1, max: 365 };

export function NotificationSettings({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const { t } = useTranslation();
  const current = me.settings.notifications;
  const form = useForm<{ low_balance_usd: number | string; key_expiry_days: number | string }>({
    initialValues: { low_balance_usd: current?.low_balance_usd ?? '', key_expiry_days: current?.key_expiry_days ?? '' },
    validate: { low_balance_usd: (value) => numberProblem(value, LOW_BALANCE_RULE), key_expiry_days: (value) => numberProblem(value, EXPIRY_DAYS_RULE) },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await api.put('/api/me/settings', {
        notifications: {
          low_balance_usd: values.low_balance_usd === '' ? null : Number(values.low_balance_usd),
          key_expiry_days: values.key_expiry_days === '' ? null : Number(values.key_expiry_days),
        },
      });
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      notifications.show({ color: 'green', message: t('settings.notificationsSaved') });
    } catch (error) {
      const message = applyServerError(error, form, ['notifications']);
      if (message) notifications.show({ color: 'red', message });
    } finally {
      setBusy(false);
    }
  });
  return (
    <Stack component="section" aria-labelledby="notifications-heading">
      <Title order={2} size="h3" id="notifications-heading">
        {t('settings.notifications')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack maw={480}>
          <NumberInput
            label={t('settings.lowBalance')}
            description={t('settings.lowBalanceHint')}
            {...exactNumberProps}
            prefix="$"
            {...form.getInputProps('low_balance_usd')}
          />
          <NumberInput
            label={t('settings.keyExpiry')}
            description={t('settings.keyExpiryHint')}
            {...exactNumberProps}
            {...form.getInputProps('key_expiry_days')}
          />
          <Button type="submit" loading={busy} w="fit-content">
            {t('settings.saveNotifications')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
