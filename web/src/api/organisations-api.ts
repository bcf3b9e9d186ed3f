// Organisations (/api/orgs): the ones I belong to, their members, invitations, keys, shared wallet and usage.
import { api } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';

export type Organisation = ApiAnswer<'/api/orgs/{id}', 'get'>;
export type OrganisationRole = Organisation['role'];
export const ORGANISATION_ROLES: readonly OrganisationRole[] = ['owner', 'admin', 'billing', 'member'];
export type Member = ApiAnswer<'/api/orgs/{id}/members', 'get'>['data'][number];

const base = (id: number) => `/api/orgs/${id}`;

/** Who may do what, as the server decides it (the pages hide what a role cannot do). */
export const canManage = (role: OrganisationRole | undefined) => role === 'owner' || role === 'admin';
export const canPay = (role: OrganisationRole | undefined) => role === 'owner' || role === 'billing';

export const organisationsApi = {
  list: async () => (await api.get<ApiAnswer<'/api/orgs', 'get'>>('/api/orgs')).data,
  create: (name: string) => api.post<ApiAnswer<'/api/orgs', 'post'>>('/api/orgs', { name }),
  get: (id: number) => api.get<Organisation>(base(id)),
  members: async (id: number) => (await api.get<ApiAnswer<'/api/orgs/{id}/members', 'get'>>(`${base(id)}/members`)).data,
  changeMember: (id: number, userId: number, changes: { role?: OrganisationRole; monthly_cap_usd?: number | null }) => api.patch<ApiAnswer<'/api/orgs/{id}/members/{user_id}', 'patch'>>(`${base(id)}/members/${userId}`, changes),
  removeMember: (id: number, userId: number) => api.delete<ApiAnswer<'/api/orgs/{id}/members/{user_id}', 'delete'>>(`${base(id)}/members/${userId}`),
  transfer: (id: number, userId: number) => api.post<ApiAnswer<'/api/orgs/{id}/transfer', 'post'>>(`${base(id)}/transfer`, { user_id: userId }),
  invites: async (id: number) => (await api.get<ApiAnswer<'/api/orgs/{id}/invites', 'get'>>(`${base(id)}/invites`)).data,
  invite: (id: number, email: string, role: OrganisationRole) => api.post<ApiAnswer<'/api/orgs/{id}/invites', 'post'>>(`${base(id)}/invites`, { email, role }),
  revokeInvite: (id: number, inviteId: number) => api.delete<ApiAnswer<'/api/orgs/{id}/invites/{invite_id}', 'delete'>>(`${base(id)}/invites/${inviteId}`),
  join: (token: string) => api.post<ApiAnswer<'/api/orgs/join', 'post'>>('/api/orgs/join', { token }),
  keys: async (id: number) => (await api.get<ApiAnswer<'/api/orgs/{id}/keys', 'get'>>(`${base(id)}/keys`)).data,
  createKey: (id: number, name: string) => api.post<ApiAnswer<'/api/orgs/{id}/keys', 'post'>>(`${base(id)}/keys`, { name }),
  deleteKey: (id: number, keyId: number) => api.delete<ApiAnswer<'/api/orgs/{id}/keys/{key_id}', 'delete'>>(`${base(id)}/keys/${keyId}`),
  logs: async (id: number, memberId: number | null) => (await api.get<ApiAnswer<'/api/orgs/{id}/logs', 'get'>>(`${base(id)}/logs?limit=50${memberId === null ? '' : `&member_id=${memberId}`}`)).data,
  stats: (id: number) => api.get<ApiAnswer<'/api/orgs/{id}/stats', 'get'>>(`${base(id)}/stats?bucket=day&from=${Date.now() - 30 * 86_400_000}`),
  wallet: (id: number) => api.get<ApiAnswer<'/api/orgs/{id}/wallet', 'get'>>(`${base(id)}/wallet?limit=20`),
  redeem: (id: number, code: string) => api.post<ApiAnswer<'/api/orgs/{id}/wallet/redeem', 'post'>>(`${base(id)}/wallet/redeem`, { code }),
  topUp: (id: number, amountUsd: number) => api.post<ApiAnswer<'/api/orgs/{id}/wallet/topup', 'post'>>(`${base(id)}/wallet/topup`, { amount_usd: amountUsd }),
};
