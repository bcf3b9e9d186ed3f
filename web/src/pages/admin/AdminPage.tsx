// Administration, for admins only (the server checks too): the platform overview, users, every key, channels, groups, models and prices,
// every call's log, payments and codes, the audit log and the settings. Each section is its own chunk.
import { lazy, Suspense } from 'react';
import { Alert, Loader, ScrollArea, Stack, Tabs, Title } from '@mantine/core';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useMe } from '../../api/session.ts';

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

const SECTIONS = [
  { path: 'overview', label: 'Overview' },
  { path: 'users', label: 'Users' },
  { path: 'keys', label: 'Keys' },
  { path: 'organisations', label: 'Organisations' },
  { path: 'channels', label: 'Channels' },
  { path: 'mcp', label: 'MCP servers' },
  { path: 'groups', label: 'Groups' },
  { path: 'models', label: 'Models and prices' },
  { path: 'logs', label: 'All logs' },
  { path: 'payments', label: 'Payments' },
  { path: 'audit', label: 'Audit log' },
  { path: 'settings', label: 'Settings' },
  { path: 'sign-in', label: 'Sign-in' },
];

export default function AdminPage() {
  const me = useMe().data;
  const location = useLocation();
  const navigate = useNavigate();
  if (me?.role !== 'admin') {
    return (
      <Alert color="red" title="Administrators only" role="alert">
        Your account cannot open the administration pages.
      </Alert>
    );
  }
  const current = location.pathname.split('/')[2] || 'overview';
  return (
    <Stack>
      <Title order={1}>Administration</Title>
      <ScrollArea type="auto" offsetScrollbars>
        <Tabs value={current} onChange={(value) => value && navigate(`/admin/${value}`)}>
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            {SECTIONS.map((section) => (
              <Tabs.Tab key={section.path} value={section.path}>
                {section.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </ScrollArea>
      <Suspense fallback={<Loader aria-label="Loading" />}>
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
