import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { AuthCard } from './AuthCard.tsx';
import { emailProblem, passwordProblem } from './password-rules.ts';

export function SignupPage() {
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
      <AuthCard title="Check your inbox">
        <Text>
          We sent a link to <strong>{sentTo}</strong>. Open it to verify your address, then sign in.
        </Text>
        <Anchor component={Link} to="/login">
          Go to sign in
        </Anchor>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create your account" subtitle="One key for every model.">
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Email" type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput label="Password" description="At least 10 characters." autoComplete="new-password" required {...form.getInputProps('password')} />
          <TextInput label="Name" autoComplete="name" {...form.getInputProps('name')} />
          <Button type="submit" loading={busy} fullWidth>
            Sign up
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        Already have an account?{' '}
        <Anchor component={Link} to="/login">
          Sign in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
