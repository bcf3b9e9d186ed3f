import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/accessibility.css';
import { StrictMode, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { cssVariablesResolver, localizedTheme } from './app/theme.ts';
import { startLanguage } from './i18n/i18n.ts';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

// The remembered language's strings load before the first paint, so no page flashes in English first.
await startLanguage();

/** Mantine with its own labels in the language in force (the theme is rebuilt when the language changes). */
function LocalizedMantine({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const theme = useMemo(() => localizedTheme({ togglePassword: t('common.togglePassword') }), [t, i18n.language]);
  // "auto" follows the system's light or dark preference.
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      {children}
    </MantineProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LocalizedMantine>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </LocalizedMantine>
  </StrictMode>,
);
