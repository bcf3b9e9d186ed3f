// Every page of the dashboard. Only the sign-in family is in the first bundle; each other page is its
// own chunk, loaded when visited (the sign-in route must stay under 250 KB of gzipped JavaScript).
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth } from './RequireAuth.tsx';
import { LoginPage } from '../pages/auth/LoginPage.tsx';
import { SignupPage } from '../pages/auth/SignupPage.tsx';
import { VerifyEmailPage } from '../pages/auth/VerifyEmailPage.tsx';
import { ForgotPasswordPage } from '../pages/auth/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../pages/auth/ResetPasswordPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';

const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const routes: RouteObject[] = [
  { path: '/login', Component: LoginPage },
  { path: '/signup', Component: SignupPage },
  { path: '/verify-email', Component: VerifyEmailPage },
  { path: '/forgot-password', Component: ForgotPasswordPage },
  { path: '/reset-password', Component: ResetPasswordPage },
  // Public, no sign-in; a 404 page while an administrator has it off.
  { path: '/pricing', ...page(() => import('../pages/pricing/PricingPage.tsx')) },
  {
    Component: RequireAuth,
    children: [
      {
        lazy: async () => ({ Component: (await import('../layout/AppLayout.tsx')).default }),
        children: [
          { index: true, ...page(() => import('../pages/OverviewPage.tsx')) },
          { path: 'keys', ...page(() => import('../pages/KeysPage.tsx')) },
          { path: 'playground', ...page(() => import('../pages/PlaygroundPage.tsx')) },
          { path: 'logs', ...page(() => import('../pages/LogsPage.tsx')) },
          { path: 'usage', ...page(() => import('../pages/UsagePage.tsx')) },
          { path: 'wallet', ...page(() => import('../pages/WalletPage.tsx')) },
          { path: 'orgs', ...page(() => import('../pages/organisations/OrganisationsPage.tsx')) },
          { path: 'orgs/join', ...page(() => import('../pages/organisations/JoinOrganisationPage.tsx')) },
          { path: 'orgs/:id', ...page(() => import('../pages/organisations/OrganisationPage.tsx')) },
          { path: 'settings', ...page(() => import('../pages/SettingsPage.tsx')) },
          { path: 'admin/*', ...page(() => import('../pages/admin/AdminPage.tsx')) },
        ],
      },
    ],
  },
  { path: '*', Component: NotFoundPage },
];

export const router = createBrowserRouter(routes);
