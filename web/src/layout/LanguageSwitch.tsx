// The language switcher: English or Simplified Chinese, remembered in this browser (i18n/i18n.ts).
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES, switchLanguage } from '../i18n/i18n.ts';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const current = currentLanguage();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t('language.choose')}>
          <ActionIcon variant="default" size="lg" aria-label={t('language.choose')}>
            <IconLanguage size={18} stroke={1.6} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((language) => (
          <Menu.Item key={language.code} lang={language.code} onClick={() => void switchLanguage(language.code)} aria-current={language.code === current ? 'true' : undefined} fw={language.code === current ? 700 : undefined}>
            {language.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
