// Administration, for admins only (the server checks too): the platform overview, users, every key, channels, groups, models and prices,
// every call's log, payments and codes, the audit log and the settings. Each section is its own chunk.
import { lazy, Suspense } from 'react';
import { Alert, Loader, ScrollArea, Stack, Tabs, Title } from '@mantine/core';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useMe } from '../../api/session.ts';
import { useTranslation } from 'react-i18next';
import './admin-strings.ts';

const AdminOverview = lazy(() => import('./AdminOverview.tsx'));
const AdminUsers = lazy(() => import('./AdminUsers.tsx'));
const AdminKeys = lazy(() => import('./AdminKeys.tsx'));
const AdminChannels = lazy(() => import('./AdminChannels.tsx'));
const AdminMcpServers = lazy(() => import('./AdminMcpServers.tsx'));
const AdminGroups = lazy(() => import('./AdminGroups.tsx'));
const AdminModels = lazy(() => import('./AdminModels.tsx'));
const AdminLogs = lazy(() => import('./AdminLogs.tsx'));
const AdminPayments = lazy(() => import('./AdminPayments.tsx'));
const AdminAudit = lazy(() => import('./AdminAudit.tsx'));
const AdminSettings = lazy(() => import('./AdminSettings.tsx'));
const AdminSignIn = lazy(() => import('./AdminSignIn.tsx'));
const AdminOrganisations = lazy(() => import('./AdminOrganisations.tsx'));

/** The tabs, in order; each one's label is admin.tabs.<path> in the catalogues. */
const SECTIONS = ['overview', 'users', 'keys', 'organisations', 'channels', 'mcp', 'groups', 'models', 'logs', 'payments', 'audit', 'settings', 'sign-in'] as const;

export default function AdminPage() {
  const me = useMe().data;
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  if (me?.role !== 'admin') {
    return (
      <Alert color="red" title={t('admin.only')} role="alert">
        {t('admin.onlyBody')}
      </Alert>
    );
  }
  const current = location.pathname.split('/')[2] || 'overview';
  return (
    <Stack>
      <Title order={1}>{t('admin.title')}</Title>
      <ScrollArea type="auto" offsetScrollbars>
        <Tabs value={current} onChange={(value) => value && navigate(`/admin/${value}`)}>
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            {SECTIONS.map((section) => (
              <Tabs.Tab key={section} value={section}>
                {t(`admin.tabs.${section}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </ScrollArea>
      <Suspense fallback={<Loader aria-label={t('common.loading')} />}>
        <Routes>
          <Route index element={<Navigate to="overview" replace />} />
          <Route path="overview" element={<AdminOverview />} />
          <Route path="users" element={<AdminUsers />} />
          <Route path="keys" element={<AdminKeys />} />
          <Route path="organisations" element={<AdminOrganisations />} />
          <Route path="channels" element={<AdminChannels />} />
          <Route path="mcp" element={<AdminMcpServers />} />
          <Route path="groups" element={<AdminGroups />} />
          <Route path="models" element={<AdminModels />} />
          <Route path="logs" element={<AdminLogs />} />
          <Route path="payments" element={<AdminPayments />} />
          <Route path="audit" element={<AdminAudit />} />
          <Route path="settings" element={<AdminSettings />} />
          <Route path="sign-in" element={<AdminSignIn />} />
        </Routes>
      </Suspense>
    </Stack>
  );
}
