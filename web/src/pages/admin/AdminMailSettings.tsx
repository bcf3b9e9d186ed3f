// Mail settings at runtime: the SMTP URL (write-only: the page shows only whether one is set, where it comes
// from and its host), the From address, going back to SMTP_URL / MAIL_FROM, and a test mail that says at
// once whether it was sent or what the mail server answered.
import { useState } from 'react';
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { adminApi, type AdminMailSettings as MailSettings } from '../../api/admin-api.ts';
import { runAdminAction } from './admin-actions.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';

/** Where the SMTP URL comes from; each one's words are admin.mail.sources.<source>. */

export function AdminMailSettings({ mail }: { mail: MailSettings | undefined }) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [smtpUrl, setSmtpUrl] = useState('');
  const [from, setFrom] = useState('');
  const [testTo, setTestTo] = useState('');
  const [testResult, setTestResult] = useState<{ sent: boolean; error?: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] });
  const save = () => {
    const change = { ...(smtpUrl.trim() ? { smtp_url: smtpUrl.trim() } : {}), ...(from.trim() ? { from: from.trim() } : {}) };
    return runAdminAction(() => adminApi.putMail(change), t('admin.mail.saved'), () => {
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
      setTestResult({ sent: false, error: errorText(error) });
    }
  };
  return (
    <Stack>
      <Title order={2} size="h4">
        {t('admin.mail.title')}
      </Title>
      <Stack gap={0}>
        <Text size="sm">
          {t('admin.mail.server', { server: mail ? (mail.smtp_url_set ? `${mail.smtp_host ?? t('admin.mail.set')} (${t(`admin.mail.sources.${mail.smtp_source}`)})` : t('admin.mail.sources.none')) : '—' })}
        </Text>
        <Text size="sm">
          {mail ? t('admin.mail.fromLine', { from: mail.from, source: mail.from_source === 'runtime' ? t('admin.mail.sources.runtime') : t('admin.mail.fromEnv') }) : '—'}
        </Text>
        <Text size="sm">{t('admin.mail.links', { url: mail?.public_url ?? '—' })}</Text>
      </Stack>
      {mail?.smtp_error ? (
        <Alert color="red" title={t('admin.mail.noMail')}>
          <span lang="en">{mail.smtp_error}</span>
        </Alert>
      ) : null}
      <PasswordInput
        label={t('admin.mail.newUrl')}
        description={t('admin.mail.newUrlHint')}
        autoComplete="off"
        value={smtpUrl}
        onChange={(event) => setSmtpUrl(event.currentTarget.value)}
      />
      <TextInput label={t('admin.mail.newFrom')} placeholder={t('admin.mail.fromPlaceholder')} value={from} onChange={(event) => setFrom(event.currentTarget.value)} />
      <Group>
        <Button w="fit-content" disabled={!smtpUrl.trim() && !from.trim()} onClick={() => void save()}>
          {t('admin.mail.save')}
        </Button>
        <Button
          variant="default"
          disabled={mail?.smtp_source !== 'runtime' && mail?.from_source !== 'runtime'}
          onClick={() => void runAdminAction(() => adminApi.putMail({ smtp_url: null, from: null }), t('admin.mail.back'), refresh)}
        >
          {t('admin.mail.useEnv')}
        </Button>
      </Group>
      <Group align="flex-end">
        <TextInput label={t('admin.mail.testTo')} type="email" value={testTo} onChange={(event) => setTestTo(event.currentTarget.value)} w={280} />
        <Button variant="light" disabled={!testTo.trim()} onClick={() => void sendTest()}>
          {t('admin.mail.send')}
        </Button>
      </Group>
      {testResult ? (
        <Alert role="status" color={testResult.sent ? 'green' : 'red'} title={testResult.sent ? t('admin.mail.sent') : t('admin.mail.notSent')}>
          {testResult.sent ? t('admin.mail.accepted', { to: testTo }) : <span lang="en">{testResult.error}</span>}
        </Alert>
      ) : null}
    </Stack>
  );
}
