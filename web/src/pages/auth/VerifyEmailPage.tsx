// Opened from the mailed link (?token=…): verifies the address once. Without a token (an unverified
// account that signed in), it explains what to do and can send a new link.
import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
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
        setState({ kind: 'failed', message: error instanceof ApiError ? error.message : 'The gateway could not be reached. Try the link again.' }),
      );
  }, [token, queryClient]);

  if (state.kind === 'verifying') {
    return (
      <AuthCard title="Verifying your address">
        <Loader aria-label="Verifying" />
      </AuthCard>
    );
  }
  if (state.kind === 'verified') {
    return (
      <AuthCard title="Address verified">
        <Text>Your e-mail address is verified. You can now sign in and create keys.</Text>
        <Button component={Link} to="/login">
          Sign in
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="This link did not work">
      <Alert color="red" role="alert">
        {state.message}
      </Alert>
      <ResendForm />
    </AuthCard>
  );
}

function ResendLink() {
  return (
    <AuthCard title="Verify your e-mail address" subtitle="Open the link we mailed you. It is valid for 24 hours.">
      <ResendForm />
      <Anchor component={Link} to="/login" size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}

function ResendForm() {
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '' }, validate: { email: emailProblem } });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await api.post('/api/auth/resend-verification', { email: values.email.trim() });
      setDone(true);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'The gateway could not be reached.');
    }
  });
  if (done) return <Text>If that address has an account waiting for verification, a new link is on its way.</Text>;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email')} />
        <Button type="submit" variant="light">
          Send a new link
        </Button>
      </Stack>
    </form>
  );
}
