// The sidebar's icon for each section (web/src/layout/sidebar-sections.ts), from Tabler, Mantine's companion set.
import { IconChartBar, IconHome, IconKey, IconListDetails, IconMessageChatbot, IconSettings, IconShieldLock, IconUsersGroup, IconWallet, type Icon } from '@tabler/icons-react';

export const SECTION_ICONS: Record<string, Icon> = {
  overview: IconHome,
  keys: IconKey,
  playground: IconMessageChatbot,
  logs: IconListDetails,
  usage: IconChartBar,
  wallet: IconWallet,
  organisations: IconUsersGroup,
  settings: IconSettings,
  admin: IconShieldLock,
};
