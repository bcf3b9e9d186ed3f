import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { AuthCard } from './AuthCard.tsx';
import { passwordProblem } from './password-rules.ts';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: passwordProblem,
      confirm: (value, values) => (value === values.password ? null : t('auth.passwordsDiffer')),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await api.post('/api/auth/password-reset/confirm', { token, password: values.password });
      setDone(true);
    } catch (error) {
      setProblem(applyServerError(error, form, ['password']));
    }
  });
  if (!token) {
    return (
      <AuthCard title={t('auth.resetTitle')}>
        <Text>{t('auth.needsResetLink')}</Text>
        <Anchor component={Link} to="/forgot-password">
          {t('auth.askNewLink')}
        </Anchor>
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard title={t('auth.passwordChanged')}>
        <Text role="status">{t('auth.passwordChangedBody')}</Text>
        <Button component={Link} to="/login">
          {t('auth.signIn')}
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.chooseNewPassword')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <PasswordInput label={t('auth.newPassword')} description={t('auth.passwordRule')} autoComplete="new-password" {...form.getInputProps('password')} />
          <PasswordInput label={t('auth.repeatPassword')} autoComplete="new-password" {...form.getInputProps('confirm')} />
          <Button type="submit">{t('auth.setPassword')}</Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
