import { useState } from 'react';
import { Button, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { passwordProblem } from '../auth/password-rules.ts';
import { i18n } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';

export function PasswordSettings() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { current_password: '', new_password: '', confirm: '' },
    validate: {
      current_password: (value) => (value ? null : i18n.t('settings.enterCurrentPassword')),
      new_password: passwordProblem,
      confirm: (value, values) => (value === values.new_password ? null : i18n.t('auth.passwordsDiffer')),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await api.post('/api/me/password', { current_password: values.current_password, new_password: values.new_password });
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
      notifications.show({ color: 'green', message: t('settings.passwordChanged') });
    } catch (error) {
      const message = applyServerError(error, form, ['current_password', 'new_password']);
      if (message) notifications.show({ color: 'red', message });
    } finally {
      setBusy(false);
    }
  });
  return (
    <Stack component="section" aria-labelledby="password-heading">
      <Title order={3} size="h4" id="password-heading">
        {t('settings.password')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack maw={480}>
          <PasswordInput label={t('settings.currentPassword')} autoComplete="current-password" {...form.getInputProps('current_password')} />
          <PasswordInput label={t('auth.newPassword')} description={t('auth.passwordRule')} autoComplete="new-password" {...form.getInputProps('new_password')} />
          <PasswordInput label={t('auth.repeatPassword')} autoComplete="new-password" {...form.getInputProps('confirm')} />
          <Button type="submit" loading={busy} w="fit-content">
            {t('settings.changePassword')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
