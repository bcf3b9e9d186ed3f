import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { meQueryKey, type Me } from '../../api/session.ts';
import { emailProblem } from '../auth/password-rules.ts';
import { i18n } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';

export function ProfileSettings({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { name: me.name, email: me.email ?? '' },
    validate: { name: (value) => (value.trim() ? null : i18n.t('settings.enterName')), email: emailProblem },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const body: Record<string, string> = {};
      if (values.name.trim() !== me.name) body.name = values.name.trim();
      if (values.email.trim() !== (me.email ?? '')) body.email = values.email.trim();
      if (Object.keys(body).length === 0) return;
      await api.patch('/api/me', body);
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      notifications.show({
        color: 'green',
        message: body.email ? t('settings.emailPending', { email: body.email }) : t('settings.profileSaved'),
      });
    } catch (error) {
      const message = applyServerError(error, form, ['name', 'email']);
      if (message) notifications.show({ color: 'red', message });
    } finally {
      setBusy(false);
    }
  });
  return (
    <Stack component="section" aria-labelledby="profile-heading">
      <Title order={2} size="h3" id="profile-heading">
        {t('settings.profile')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack maw={480}>
          <TextInput label={t('settings.name')} autoComplete="name" {...form.getInputProps('name')} />
          <TextInput label={t('auth.email')} type="email" autoComplete="email" description={t('settings.emailHint')} {...form.getInputProps('email')} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('settings.saveProfile')}
            </Button>
            {me.email_verified ? null : <Text c="dimmed">{t('settings.notVerified')}</Text>}
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
