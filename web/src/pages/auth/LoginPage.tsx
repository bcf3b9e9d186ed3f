// Sign-in in one or two steps: e-mail and password, then a two-factor code when the account has it on
// (the server answers 401 with code `totp_required`). Or with a passkey, or through an identity provider
// (a full-page redirect that comes back here with ?step=totp or ?signin_error= when it did not finish).
// After sign-in the user returns to ?next=.
import { useState } from 'react';
import { Alert, Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { rememberSignIn, type SignedIn } from '../../api/session.ts';
import { safeNext } from '../../app/safe-next.ts';
import { AuthCard } from './AuthCard.tsx';
import { emailProblem } from './password-rules.ts';
import { ProviderButtons, signinErrorText } from './ProviderButtons.tsx';
import { signInWithPasskey } from '../../api/passkeys.ts';

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [step, setStep] = useState<'password' | 'code'>(params.get('step') === 'totp' ? 'code' : 'password');
  const [problem, setProblem] = useState<string | null>(signinErrorText(params.get('signin_error')));
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const next = safeNext(params.get('next'));

  const credentials = useForm({
    initialValues: { email: '', password: '' },
    validate: { email: emailProblem, password: (value) => (value ? null : t('auth.enterPassword')) },
  });
  const second = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (value.trim().length >= 6 ? null : t('auth.enterCode')) },
  });

  const finish = (data: SignedIn) => {
    rememberSignIn(queryClient, data);
    navigate(next, { replace: true });
  };

  const submitPassword = credentials.onSubmit(async (values) => {
    setProblem(null);
    setBusy(true);
    try {
      finish(await api.post<SignedIn>('/api/auth/login', { email: values.email.trim(), password: values.password }));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'totp_required') {
        setStep('code');
      } else {
        setProblem(applyServerError(error, credentials, ['email', 'password']));
      }
    } finally {
      setBusy(false);
    }
  });

  const passkey = async () => {
    setProblem(null);
    setBusy(true);
    try {
      finish(await signInWithPasskey());
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  const submitCode = second.onSubmit(async (values) => {
    setProblem(null);
    setBusy(true);
    try {
      finish(await api.post<SignedIn>('/api/auth/login/totp', { code: values.code.trim() }));
    } catch (error) {
      setProblem(applyServerError(error, second, ['code']));
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthCard title={t('auth.signIn')} subtitle={step === 'code' ? t('auth.codeSubtitle') : t('auth.welcomeBack')}>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      {step === 'password' ? (
        <form onSubmit={submitPassword} noValidate>
          <Stack>
            <TextInput label={t('auth.email')} type="email" autoComplete="email" required {...credentials.getInputProps('email')} />
            <PasswordInput label={t('auth.password')} autoComplete="current-password" required {...credentials.getInputProps('password')} />
            <Button type="submit" loading={busy} fullWidth>
              {t('auth.signIn')}
            </Button>
            <Divider label={t('common.or')} labelPosition="center" />
            <Button variant="default" fullWidth onClick={passkey} disabled={busy}>
              {t('auth.signInWithPasskey')}
            </Button>
            <ProviderButtons next={next} />
          </Stack>
        </form>
      ) : (
        <form onSubmit={submitCode} noValidate>
          <Stack>
            <TextInput label={t('auth.code')} autoComplete="one-time-code" inputMode="text" required data-autofocus {...second.getInputProps('code')} />
            <Button type="submit" loading={busy} fullWidth>
              {t('auth.verify')}
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => setStep('password')}>
              {t('auth.back')}
            </Anchor>
          </Stack>
        </form>
      )}
      <Group justify="space-between">
        <Anchor component={Link} to="/forgot-password" size="sm">
          {t('auth.forgotPassword')}
        </Anchor>
        <Text size="sm">
          {t('auth.newHere')}{' '}
          <Anchor component={Link} to="/signup">
            {t('auth.createAccount')}
          </Anchor>
        </Text>
      </Group>
    </AuthCard>
  );
}
