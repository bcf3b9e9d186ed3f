// The user's own API keys (/api/keys) and the groups they may pick (/api/groups), typed by the answers the
// server declares (generated/api-types.ts).
import { api } from './api-client.ts';
import type { ApiAnswer, ApiBody } from './api-types.ts';

export type ApiKey = ApiAnswer<'/api/keys', 'get'>['data'][number];

/** What PATCH /api/keys/:id changes. */
export type KeyChanges = ApiBody<'/api/keys/{id}', 'patch'>;

type KeyWithSecret = ApiAnswer<'/api/keys', 'post'>;

/** A key just created or rotated: its settings, and its secret (answered this once). */
function withSecret({ key: secret, ...key }: KeyWithSecret): { key: ApiKey; secret: string } {
  return { key, secret };
}

export const keysApi = {
  list: async () => (await api.get<ApiAnswer<'/api/keys', 'get'>>('/api/keys')).data,
  create: async (changes: ApiBody<'/api/keys', 'post'>) => withSecret(await api.post<KeyWithSecret>('/api/keys', changes)),
  update: (id: number, changes: KeyChanges) => api.patch<ApiAnswer<'/api/keys/{id}', 'patch'>>(`/api/keys/${id}`, changes),
  rotate: async (id: number) => withSecret(await api.post<ApiAnswer<'/api/keys/{id}/rotate', 'post'>>(`/api/keys/${id}/rotate`)).secret,
  remove: (id: number) => api.delete<ApiAnswer<'/api/keys/{id}', 'delete'>>(`/api/keys/${id}`),
};

export type GroupChoice = ApiAnswer<'/api/groups', 'get'>['data'][number];

export async function listGroups(): Promise<GroupChoice[]> {
  return (await api.get<ApiAnswer<'/api/groups', 'get'>>('/api/groups')).data;
}
