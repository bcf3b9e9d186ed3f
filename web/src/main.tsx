import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/accessibility.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { startLanguage } from './i18n/i18n.ts';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

// The remembered language's strings load before the first paint, so no page flashes in English first.
await startLanguage();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* "auto" follows the system's light or dark preference. */}
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
