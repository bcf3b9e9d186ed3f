// The signed-in user, as GET /api/me tells it. One query shared by the whole app: the layout, the
// sidebar and the pages read it; signing in or out updates it in place.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, setCsrfToken } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';

type MeAnswer = ApiAnswer<'/api/me', 'get'>;
/** Sign-in's answer (password, second factor, passkey): the user and the CSRF token, no settings. */
export type SignedIn = ApiAnswer<'/api/auth/login', 'post'>;

/** The user, and the settings once GET /api/me has told them (sign-in's answer has none). */
export type Me = MeAnswer['user'] & { settings: Partial<MeAnswer['settings']> };

export const meQueryKey = ['me'] as const;

/** Reads {user, settings, csrf_token} (GET /api/me, sign-in) and remembers the CSRF token. */
function readMe(answer: MeAnswer | SignedIn): Me {
  if (answer.csrf_token !== undefined) setCsrfToken(answer.csrf_token);
  return { ...answer.user, settings: 'settings' in answer ? answer.settings : {} };
}

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: async () => readMe(await api.get<MeAnswer>('/api/me')),
    retry: false,
    staleTime: 60_000,
  });
}

export function rememberSignIn(queryClient: QueryClient, data: SignedIn): Me {
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
