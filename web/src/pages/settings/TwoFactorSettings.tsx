// Two-factor set-up: the QR code and the secret, a code to confirm, then the ten recovery codes, shown
// once. Turning it off needs a code too.
import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Image, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { meQueryKey, type Me } from '../../api/session.ts';

interface Setup {
  secret: string;
  otpauth_url: string;
  qr: string;
}

export function TwoFactorSettings({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setProblem(null);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };

  const start = () => run(async () => setSetup(await api.post<Setup>('/api/me/2fa/setup')));
  const enable = () =>
    run(async () => {
      const answer = await api.post<{ recovery_codes: string[] }>('/api/me/2fa/enable', { code: code.trim() });
      setRecoveryCodes(answer.recovery_codes);
      setSetup(null);
      setCode('');
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
    });
  const disable = () =>
    run(async () => {
      await api.post('/api/me/2fa/disable', { code: code.trim() });
      setCode('');
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      notifications.show({ color: 'green', message: 'Two-factor sign-in is off.' });
    });

  return (
    <Stack component="section" aria-labelledby="two-factor-heading">
      <Title order={3} size="h4" id="two-factor-heading">
        Two-factor authentication
      </Title>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      {recoveryCodes ? (
        <Alert color="green" title="Two-factor sign-in is on">
          <Text size="sm" mb="xs">
            Keep these recovery codes somewhere safe. Each works once if you lose your authenticator. They are shown only now.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing={4} aria-label="Recovery codes">
            {recoveryCodes.map((recovery) => (
              <Code key={recovery}>{recovery}</Code>
            ))}
          </SimpleGrid>
          <CopyButton value={recoveryCodes.join('\n')}>
            {({ copied, copy }) => (
              <Button size="xs" mt="sm" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy the codes'}
              </Button>
            )}
          </CopyButton>
        </Alert>
      ) : null}
      {me.two_factor_enabled ? (
        <Stack maw={480}>
          <Text>Two-factor sign-in is on. Enter a code to turn it off.</Text>
          <TextInput label="Code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.currentTarget.value)} />
          <Button color="red" variant="light" loading={busy} onClick={disable} w="fit-content">
            Turn off two-factor
          </Button>
        </Stack>
      ) : setup ? (
        <Stack maw={480}>
          <Text>Scan this code with your authenticator app, or enter the secret by hand, then type the 6-digit code it shows.</Text>
          <Image src={setup.qr} alt="QR code for your authenticator app" w={200} h={200} />
          <Group gap="xs">
            <Text size="sm">Secret:</Text>
            <Code data-testid="totp-secret">{setup.secret}</Code>
          </Group>
          <TextInput label="Code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.currentTarget.value)} />
          <Button loading={busy} onClick={enable} w="fit-content">
            Turn on two-factor
          </Button>
        </Stack>
      ) : (
        <Stack maw={480}>
          <Text>Protect your account with a code from an authenticator app at every sign-in.</Text>
          <Button loading={busy} onClick={start} w="fit-content">
            Set up two-factor
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
