// Mail settings at runtime: the SMTP URL (write-only: the page shows only whether one is set, where it comes
// from and its host), the From address, going back to SMTP_URL / MAIL_FROM, and a test mail that says at
// once whether it was sent or what the mail server answered.
import { useState } from 'react';
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { adminApi, type AdminMailSettings as MailSettings } from '../../api/admin-api.ts';
import { runAdminAction } from './admin-actions.ts';

const SOURCES = { runtime: 'set here', env: 'from SMTP_URL', none: 'none: mail is written to files under DATA_DIR/mail' } as const;

export function AdminMailSettings({ mail }: { mail: MailSettings | undefined }) {
  const queryClient = useQueryClient();
  const [smtpUrl, setSmtpUrl] = useState('');
  const [from, setFrom] = useState('');
  const [testTo, setTestTo] = useState('');
  const [testResult, setTestResult] = useState<{ sent: boolean; error?: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] });
  const save = () => {
    const change = { ...(smtpUrl.trim() ? { smtp_url: smtpUrl.trim() } : {}), ...(from.trim() ? { from: from.trim() } : {}) };
    return runAdminAction(() => adminApi.putMail(change), 'Mail settings saved. The next mail uses them.', () => {
      setSmtpUrl('');
      setFrom('');
      return refresh();
    });
  };
  const sendTest = async () => {
    setTestResult(null);
    try {
      setTestResult(await adminApi.testMail(testTo));
    } catch (error) {
      setTestResult({ sent: false, error: error instanceof Error ? error.message : 'That did not work.' });
    }
  };
  return (
    <Stack>
      <Title order={2} size="h4">
        Mail
      </Title>
      <Text size="sm">
        SMTP server: {mail ? (mail.smtp_url_set ? `${mail.smtp_host ?? 'set'} (${SOURCES[mail.smtp_source]})` : SOURCES.none) : '—'}
        <br />
        From: {mail ? `${mail.from} (${mail.from_source === 'runtime' ? 'set here' : 'from MAIL_FROM'})` : '—'} · links start with {mail?.public_url ?? '—'}
      </Text>
      {mail?.smtp_error ? (
        <Alert color="red" title="No mail is sent">
          {mail.smtp_error}
        </Alert>
      ) : null}
      <PasswordInput
        label="New SMTP URL"
        description="smtp://user:password@host:587 or smtps://…:465. Stored encrypted and never shown again; leave empty to keep the current one."
        autoComplete="off"
        value={smtpUrl}
        onChange={(event) => setSmtpUrl(event.currentTarget.value)}
      />
      <TextInput label="New From address" placeholder="Gateway <gateway@example.com>" value={from} onChange={(event) => setFrom(event.currentTarget.value)} />
      <Group>
        <Button w="fit-content" disabled={!smtpUrl.trim() && !from.trim()} onClick={() => void save()}>
          Save mail settings
        </Button>
        <Button
          variant="default"
          disabled={mail?.smtp_source !== 'runtime' && mail?.from_source !== 'runtime'}
          onClick={() => void runAdminAction(() => adminApi.putMail({ smtp_url: null, from: null }), 'Back to SMTP_URL and MAIL_FROM.', refresh)}
        >
          Use SMTP_URL and MAIL_FROM
        </Button>
      </Group>
      <Group align="flex-end">
        <TextInput label="Send a test mail to" type="email" value={testTo} onChange={(event) => setTestTo(event.currentTarget.value)} w={280} />
        <Button variant="light" disabled={!testTo.trim()} onClick={() => void sendTest()}>
          Send test mail
        </Button>
      </Group>
      {testResult ? (
        <Alert role="status" color={testResult.sent ? 'green' : 'red'} title={testResult.sent ? 'Test mail sent' : 'Test mail not sent'}>
          {testResult.sent ? `The mail server accepted the mail to ${testTo}.` : testResult.error}
        </Alert>
      ) : null}
    </Stack>
  );
}
