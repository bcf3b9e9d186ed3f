// The app's own page for an address it does not have (the server answers such page loads with this app
// and a 404 status, src/http/web-app.ts), instead of the API's JSON.
import { Anchor, Center, Code, Stack, Text, Title } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" maw={520}>
        <IconMapOff size={48} stroke={1.4} aria-hidden color="var(--mantine-color-dimmed)" />
        <Title order={1}>{t('notFound.title')}</Title>
        <Text ta="center">
          <Trans i18nKey="notFound.body" values={{ path: location.pathname }} components={{ code: <Code /> }} />
        </Text>
        <Anchor component={Link} to="/">
          {t('notFound.home')}
        </Anchor>
      </Stack>
    </Center>
  );
}
