// Opened from the mailed link (?token=…): verifies the address once. Without a token (an unverified
// account that signed in), it explains what to do and can send a new link.
import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/i18n.ts';
import { Link, useSearchParams } from 'react-router';
import { ApiError, api } from '../../api/api-client.ts';
import { meQueryKey } from '../../api/session.ts';
import { AuthCard } from './AuthCard.tsx';
import { emailProblem } from './password-rules.ts';

type State = { kind: 'verifying' } | { kind: 'verified' } | { kind: 'failed'; message: string };

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <VerifyToken token={token} /> : <ResendLink />;
}

function VerifyToken({ token }: { token: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'verifying' });
  const queryClient = useQueryClient();
  const sent = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice in development; the token is single use, so send it once.
    if (sent.current) return;
    sent.current = true;
    api
      .post('/api/auth/verify-email', { token })
      .then(() => {
        setState({ kind: 'verified' });
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
      })
      .catch((error: unknown) =>
        setState({ kind: 'failed', message: error instanceof ApiError ? error.message : i18n.t('auth.unreachableTryLink') }),
      );
  }, [token, queryClient]);

  if (state.kind === 'verifying') {
    return (
      <AuthCard title={t('auth.verifying')}>
        <Loader aria-label={t('auth.verifyingShort')} />
      </AuthCard>
    );
  }
  if (state.kind === 'verified') {
    return (
      <AuthCard title={t('auth.verified')}>
        <Text>{t('auth.verifiedBody')}</Text>
        <Button component={Link} to="/login">
          {t('auth.signIn')}
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.linkFailed')}>
      <Alert color="red" role="alert">
        {state.message}
      </Alert>
      <ResendForm />
    </AuthCard>
  );
}

function ResendLink() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verifyTitle')} subtitle={t('auth.verifySubtitle')}>
      <ResendForm />
      <Anchor component={Link} to="/login" size="sm">
        {t('auth.backToSignIn')}
      </Anchor>
    </AuthCard>
  );
}

function ResendForm() {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '' }, validate: { email: emailProblem } });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await api.post('/api/auth/resend-verification', { email: values.email.trim() });
      setDone(true);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : t('common.unreachable'));
    }
  });
  if (done) return <Text>{t('auth.resendSent')}</Text>;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        <TextInput label={t('auth.email')} type="email" autoComplete="email" {...form.getInputProps('email')} />
        <Button type="submit" variant="light">
          {t('auth.sendNewLink')}
        </Button>
      </Stack>
    </form>
  );
}
