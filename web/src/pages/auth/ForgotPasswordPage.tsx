import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { AuthCard } from './AuthCard.tsx';
import { emailProblem } from './password-rules.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '' }, validate: { email: emailProblem } });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await api.post('/api/auth/password-reset', { email: values.email.trim() });
      setSent(true);
    } catch (error) {
      setProblem(applyServerError(error, form, ['email']));
    }
  });
  return (
    <AuthCard title={t('auth.resetTitle')} subtitle={t('auth.resetSubtitle')}>
      {sent ? (
        <Text role="status">{t('auth.resetSent')}</Text>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            {problem ? (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            ) : null}
            <TextInput label={t('auth.email')} type="email" autoComplete="email" {...form.getInputProps('email')} />
            <Button type="submit">{t('auth.sendResetLink')}</Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm">
        {t('auth.backToSignIn')}
      </Anchor>
    </AuthCard>
  );
}
