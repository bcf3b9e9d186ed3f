import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { AuthCard } from './AuthCard.tsx';
import { passwordProblem } from './password-rules.ts';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: passwordProblem,
      confirm: (value, values) => (value === values.password ? null : 'The two passwords differ.'),
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
      <AuthCard title="Reset your password">
        <Text>This page needs the link from the reset mail.</Text>
        <Anchor component={Link} to="/forgot-password">
          Ask for a new link
        </Anchor>
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard title="Password changed">
        <Text role="status">Your password is changed and every other session is signed out.</Text>
        <Button component={Link} to="/login">
          Sign in
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <form onSubmit={submit} noValidate>
        <Stack>
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <PasswordInput label="New password" description="At least 10 characters." autoComplete="new-password" {...form.getInputProps('password')} />
          <PasswordInput label="Repeat the new password" autoComplete="new-password" {...form.getInputProps('confirm')} />
          <Button type="submit">Set password</Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
