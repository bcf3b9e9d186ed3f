// The signed-in frame: a header, and a sidebar whose sections follow the user's own layout (order and
// visibility from their settings). On a phone the sidebar folds behind a menu button.
import { ActionIcon, AppShell, Burger, Group, NavLink, Text, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { signOut, useMe } from '../api/session.ts';
import { visibleSections } from './sidebar-sections.ts';

export default function AppLayout() {
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
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close the menu' : 'Open the menu'} />
            <Text fw={700} component={Link} to="/" style={{ textDecoration: 'none', color: 'inherit' }}>
              Model gateway
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="xs" truncate maw={220}>
              {user?.email}
            </Text>
            <ColorSchemeToggle />
            <ActionIcon variant="default" size="lg" aria-label="Sign out" onClick={onSignOut} title="Sign out">
              <span aria-hidden>⎋</span>
            </ActionIcon>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        {sections.map((section) => (
          <NavLink
            key={section.id}
            component={Link}
            to={section.path}
            label={section.label}
            active={section.path === '/' ? location.pathname === '/' : location.pathname.startsWith(section.path.replace(/\/users$/, ''))}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to the ${next} theme`}>
      <ActionIcon variant="default" size="lg" aria-label={`Switch to the ${next} theme`} onClick={() => setColorScheme(next)}>
        <span aria-hidden>{computed === 'dark' ? '☀' : '☾'}</span>
      </ActionIcon>
    </Tooltip>
  );
}
