// Two-factor set-up: the QR code and the secret, a code to confirm, then the ten recovery codes, shown
// once. Turning it off needs a code too.
import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Image, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { meQueryKey, type Me } from '../../api/session.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';

type Setup = ApiAnswer<'/api/me/2fa/setup', 'post'>;

export function TwoFactorSettings({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
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
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const start = () => run(async () => setSetup(await api.post<Setup>('/api/me/2fa/setup')));
  const enable = () =>
    run(async () => {
      const answer = await api.post<ApiAnswer<'/api/me/2fa/enable', 'post'>>('/api/me/2fa/enable', { code: code.trim() });
      setRecoveryCodes(answer.recovery_codes);
      setSetup(null);
      setCode('');
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
    });
  const disable = () =>
    run(async () => {
      await api.post<ApiAnswer<'/api/me/2fa/disable', 'post'>>('/api/me/2fa/disable', { code: code.trim() });
      setCode('');
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      notifications.show({ color: 'green', message: t('settings.twoFactorOff') });
    });

  return (
    <Stack component="section" aria-labelledby="two-factor-heading">
      <Title order={3} size="h4" id="two-factor-heading">
        {t('settings.twoFactor')}
      </Title>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      {recoveryCodes ? (
        <Alert color="green" title={t('settings.twoFactorOnTitle')}>
          <Text size="sm" mb="xs">
            {t('settings.recoveryIntro')}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing={4} aria-label={t('settings.recoveryCodes')}>
            {recoveryCodes.map((recovery) => (
              <Code key={recovery}>{recovery}</Code>
            ))}
          </SimpleGrid>
          <CopyButton value={recoveryCodes.join('\n')}>
            {({ copied, copy }) => (
              <Button size="xs" mt="sm" variant="light" onClick={copy}>
                {copied ? t('common.copied') : t('settings.copyCodes')}
              </Button>
            )}
          </CopyButton>
        </Alert>
      ) : null}
      {me.two_factor_enabled ? (
        <Stack maw={480}>
          <Text>{t('settings.twoFactorOnBody')}</Text>
          <TextInput label={t('auth.code')} autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.currentTarget.value)} />
          <Button color="red" variant="light" loading={busy} onClick={disable} w="fit-content">
            {t('settings.turnOff')}
          </Button>
        </Stack>
      ) : setup ? (
        <Stack maw={480}>
          <Text>{t('settings.scan')}</Text>
          <Image src={setup.qr} alt={t('settings.qrAlt')} w={200} h={200} />
          <Group gap="xs">
            <Text size="sm">{t('settings.secret')}</Text>
            <Code data-testid="totp-secret">{setup.secret}</Code>
          </Group>
          <TextInput label={t('auth.code')} autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.currentTarget.value)} />
          <Button loading={busy} onClick={enable} w="fit-content">
            {t('settings.turnOn')}
          </Button>
        </Stack>
      ) : (
        <Stack maw={480}>
          <Text>{t('settings.protect')}</Text>
          <Button loading={busy} onClick={start} w="fit-content">
            {t('settings.setUp')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
