import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { AuthCard } from './AuthCard.tsx';
import { emailProblem, passwordProblem } from './password-rules.ts';

export function SignupPage() {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { email: '', password: '', name: '' },
    validate: { email: emailProblem, password: passwordProblem },
  });

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    setBusy(true);
    try {
      await api.post('/api/auth/signup', { email: values.email.trim(), password: values.password, ...(values.name.trim() ? { name: values.name.trim() } : {}) });
      setSentTo(values.email.trim());
    } catch (error) {
      setProblem(applyServerError(error, form, ['email', 'password', 'name']));
    } finally {
      setBusy(false);
    }
  });

  if (sentTo) {
    return (
      <AuthCard title={t('auth.checkInbox')}>
        <Text>
          <Trans i18nKey="auth.sentLink" values={{ email: sentTo }} components={{ strong: <strong /> }} />
        </Text>
        <Anchor component={Link} to="/login">
          {t('auth.goToSignIn')}
        </Anchor>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.createTitle')} subtitle={t('auth.createSubtitle')}>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('auth.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput label={t('auth.password')} description={t('auth.passwordRule')} autoComplete="new-password" required {...form.getInputProps('password')} />
          <TextInput label={t('auth.name')} autoComplete="name" {...form.getInputProps('name')} />
          <Button type="submit" loading={busy} fullWidth>
            {t('auth.signUp')}
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        {t('auth.haveAccount')}{' '}
        <Anchor component={Link} to="/login">
          {t('auth.signIn')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
