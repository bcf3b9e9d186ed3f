// The signed-in user, as GET /api/me tells it. One query shared by the whole app: the layout, the
// sidebar and the pages read it; signing in or out updates it in place.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, setCsrfToken } from './api-client.ts';
import type { SidebarLayout } from '../layout/sidebar-sections.ts';

export interface Me {
  id: string;
  email: string;
  name: string;
  role: 'user' | 'admin';
  email_verified: boolean;
  two_factor_enabled: boolean;
  balance_usd: number | null;
  settings: { sidebar?: SidebarLayout | null; notifications?: { low_balance_usd?: number | null; key_expiry_days?: number | null } };
}

export const meQueryKey = ['me'] as const;

/** Reads {user, settings, csrf_token} (GET /api/me, sign-in) and remembers the CSRF token. */
function readMe(data: unknown): Me {
  const record = (data ?? {}) as Record<string, unknown>;
  const user = (record.user ?? record) as Record<string, unknown>;
  if (typeof record.csrf_token === 'string') setCsrfToken(record.csrf_token);
  return {
    id: String(user.id ?? ''),
    email: String(user.email ?? ''),
    name: String(user.name ?? ''),
    role: user.role === 'admin' ? 'admin' : 'user',
    email_verified: user.email_verified !== false,
    two_factor_enabled: Boolean(user.two_factor_enabled),
    balance_usd: typeof user.balance_usd === 'number' ? user.balance_usd : null,
    settings: (record.settings ?? user.settings ?? {}) as Me['settings'],
  };
}

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: async () => readMe(await api.get<unknown>('/api/me')),
    retry: false,
    staleTime: 60_000,
  });
}

export function rememberSignIn(queryClient: QueryClient, data: unknown): Me {
  const me = readMe(data);
  queryClient.setQueryData(meQueryKey, me);
  return me;
}

export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await api.post('/api/auth/logout');
  } finally {
    setCsrfToken(null);
    queryClient.clear();
  }
}
