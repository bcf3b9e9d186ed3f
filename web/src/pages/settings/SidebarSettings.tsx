// Reorder and hide the sidebar's sections. Each change is shown at once (the signed-in user's cached
// settings are updated before the server answers) and saved to the server, so it survives a reload.
import { ActionIcon, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { meQueryKey, type Me } from '../../api/session.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';
import { arrangeSections, moveSection, setSectionHidden, type SidebarLayout } from '../../layout/sidebar-sections.ts';

export function SidebarSettings({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const isAdmin = me.role === 'admin';
  const sections = arrangeSections(me.settings.sidebar, isAdmin);

  const save = async (layout: SidebarLayout) => {
    const previous = queryClient.getQueryData<Me>(meQueryKey);
    queryClient.setQueryData<Me>(meQueryKey, (old) => (old ? { ...old, settings: { ...old.settings, sidebar: layout } } : old));
    try {
      await api.put('/api/me/settings', { sidebar: layout });
    } catch (error) {
      queryClient.setQueryData(meQueryKey, previous);
      notifications.show({ color: 'red', message: errorText(error) });
    }
  };

  return (
    <Stack component="section" aria-labelledby="sidebar-heading">
      <Title order={2} size="h3" id="sidebar-heading">
        {t('settings.sidebar')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('settings.sidebarIntro')}
      </Text>
      <Stack gap={6} maw={480} role="list" aria-label={t('settings.sidebarSections')}>
        {sections.map((section, index) => (
          <Paper key={section.id} withBorder p="xs" role="listitem">
            <Group justify="space-between" wrap="nowrap">
              <Text fw={500}>{t(`nav.${section.id}`, { defaultValue: section.label })}</Text>
              <Group gap={6} wrap="nowrap">
                <Switch
                  label={t('settings.shown')}
                  checked={!section.hidden}
                  disabled={section.id === 'settings'}
                  onChange={(event) => void save(setSectionHidden(me.settings.sidebar, isAdmin, section.id, !event.currentTarget.checked))}
                />
                <ActionIcon variant="default" aria-label={t('settings.moveUp', { name: t(`nav.${section.id}`, { defaultValue: section.label }) })} disabled={index === 0} onClick={() => void save(moveSection(me.settings.sidebar, isAdmin, section.id, -1))}>
                  <IconArrowUp size={16} stroke={1.8} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  aria-label={t('settings.moveDown', { name: t(`nav.${section.id}`, { defaultValue: section.label }) })}
                  disabled={index === sections.length - 1}
                  onClick={() => void save(moveSection(me.settings.sidebar, isAdmin, section.id, 1))}
                >
                  <IconArrowDown size={16} stroke={1.8} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
