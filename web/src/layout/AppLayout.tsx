// The signed-in frame: a header with the brand, and a sidebar whose sections follow the user's own layout
// (order and visibility from their settings), each with its icon. On a phone the sidebar folds behind a
// menu button.
import { ActionIcon, AppShell, Burger, Group, NavLink, Text, Tooltip, UnstyledButton, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { IconLogout, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { signOut, useMe } from '../api/session.ts';
import { Brand } from '../brand/BrandMark.tsx';
import { visibleSections } from './sidebar-sections.ts';
import { SECTION_ICONS } from './section-icons.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';

export default function AppLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = me.data;
  const sections = visibleSections(user?.settings.sidebar, user?.role === 'admin');

  const onSignOut = async () => {
    await signOut(queryClient);
    navigate('/login', { replace: true });
  };

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        {/* Tighter on a phone, so the brand and the four buttons fit 375 px. */}
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap={6}>
          <Group gap={8} wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? t('nav.closeMenu') : t('nav.openMenu')} />
            <UnstyledButton component={Link} to="/" aria-label={t('brand.home')}>
              <Brand size={26} />
            </UnstyledButton>
          </Group>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm" truncate maw={220}>
              {user?.email}
            </Text>
            <LanguageSwitch />
            <ColorSchemeToggle />
            <Tooltip label={t('nav.signOut')}>
              <ActionIcon variant="default" size="lg" aria-label={t('nav.signOut')} onClick={onSignOut}>
                <IconLogout size={18} stroke={1.6} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.sections')}>
        {sections.map((section) => {
          const Icon = SECTION_ICONS[section.id];
          return (
            <NavLink
              key={section.id}
              component={Link}
              to={section.path}
              label={t(`nav.${section.id}`, { defaultValue: section.label })}
              leftSection={Icon ? <Icon size={18} stroke={1.6} aria-hidden /> : null}
              active={section.path === '/' ? location.pathname === '/' : location.pathname.startsWith(section.path.replace(/\/users$/, ''))}
              onClick={close}
            />
          );
        })}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

function ColorSchemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? t('nav.themeDark') : t('nav.themeLight');
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} onClick={() => setColorScheme(next)}>
        {computed === 'dark' ? <IconSun size={18} stroke={1.6} aria-hidden /> : <IconMoon size={18} stroke={1.6} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
