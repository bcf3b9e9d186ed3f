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
  totp_enabled: boolean;
  settings: { sidebar?: SidebarLayout; notifications?: Record<string, unknown> };
}

export const meQueryKey = ['me'] as const;

/** Accepts {user, csrf_token} and a flat user with csrf_token alike, and remembers the token. */
export function readMe(data: unknown): Me {
  const record = (data ?? {}) as Record<string, unknown>;
  const user = (record.user ?? record) as Record<string, unknown>;
  if (typeof record.csrf_token === 'string') setCsrfToken(record.csrf_token);
  return {
    id: String(user.id ?? ''),
    email: String(user.email ?? ''),
    name: String(user.name ?? ''),
    role: user.role === 'admin' ? 'admin' : 'user',
    email_verified: user.email_verified !== false,
    totp_enabled: Boolean(user.totp_enabled),
    settings: (user.settings ?? record.settings ?? {}) as Me['settings'],
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
