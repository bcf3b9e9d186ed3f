import { useState } from 'react';
import { Button, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { passwordProblem } from '../auth/password-rules.ts';

export function PasswordSettings() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { current_password: '', new_password: '', confirm: '' },
    validate: {
      current_password: (value) => (value ? null : 'Enter your current password.'),
      new_password: passwordProblem,
      confirm: (value, values) => (value === values.new_password ? null : 'The two passwords differ.'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await api.post('/api/me/password', { current_password: values.current_password, new_password: values.new_password });
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
      notifications.show({ color: 'green', message: 'Password changed. Your other sessions are signed out.' });
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
        Password
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack maw={480}>
          <PasswordInput label="Current password" autoComplete="current-password" {...form.getInputProps('current_password')} />
          <PasswordInput label="New password" description="At least 10 characters." autoComplete="new-password" {...form.getInputProps('new_password')} />
          <PasswordInput label="Repeat the new password" autoComplete="new-password" {...form.getInputProps('confirm')} />
          <Button type="submit" loading={busy} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
