import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { api } from '../../api/api-client.ts';
import { applyServerError } from '../../api/form-errors.ts';
import { AuthCard } from './AuthCard.tsx';
import { emailProblem } from './password-rules.ts';

export function ForgotPasswordPage() {
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
    <AuthCard title="Reset your password" subtitle="We will mail you a link that is valid for one hour.">
      {sent ? (
        <Text role="status">If an account uses that address, a reset link is on its way.</Text>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            {problem ? (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            ) : null}
            <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email')} />
            <Button type="submit">Send reset link</Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
