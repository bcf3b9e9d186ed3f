import { Divider, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMe } from '../api/session.ts';
import { ProfileSettings } from './settings/ProfileSettings.tsx';
import { NotificationSettings } from './settings/NotificationSettings.tsx';
import { SidebarSettings } from './settings/SidebarSettings.tsx';
import { PasswordSettings } from './settings/PasswordSettings.tsx';
import { SessionSettings } from './settings/SessionSettings.tsx';
import { TwoFactorSettings } from './settings/TwoFactorSettings.tsx';
import { PasskeySettings } from './settings/PasskeySettings.tsx';
import { LinkedIdentitySettings } from './settings/LinkedIdentitySettings.tsx';

export default function SettingsPage() {
  const me = useMe().data;
  const { t } = useTranslation();
  if (!me) return null;
  return (
    <Stack gap="xl" maw={900}>
      <Title order={1}>{t('settings.title')}</Title>
      <ProfileSettings me={me} />
      <Divider />
      <NotificationSettings me={me} />
      <Divider />
      <SidebarSettings me={me} />
      <Divider />
      <Stack gap="xl" component="section" aria-labelledby="security-heading">
        <Title order={2} size="h3" id="security-heading">
          {t('settings.security')}
        </Title>
        <PasswordSettings />
        <SessionSettings />
        <TwoFactorSettings me={me} />
        <PasskeySettings />
        <LinkedIdentitySettings />
      </Stack>
    </Stack>
  );
}
