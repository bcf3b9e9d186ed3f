// Organisations (/api/orgs): the ones I belong to, their members, invitations, keys, shared wallet and usage.
import { api } from './api-client.ts';

export type OrganisationRole = 'owner' | 'admin' | 'billing' | 'member';
export const ORGANISATION_ROLES: readonly OrganisationRole[] = ['owner', 'admin', 'billing', 'member'];

export interface Organisation {
  id: number;
  name: string;
  role: OrganisationRole;
  group: string;
  monthly_cap_usd: number | null;
  balance_usd: number | null;
}

export interface Member {
  user_id: number;
  name: string;
  email: string | null;
  role: OrganisationRole;
  monthly_cap_usd: number | null;
}

interface Invite {
  id: number;
  email: string;
  role: OrganisationRole;
  expires_at: string;
  expired: boolean;
}

interface OrganisationKey {
  id: number;
  name: string;
  prefix: string;
  group: string;
  enabled: boolean;
  spent_usd: number;
  member_user_id: number | null;
  member_name: string | null;
}

interface OrganisationStats {
  scope: 'organisation' | 'member';
  totals: { requests: number; errors: number; costUsd: number };
  by_member: { member_user_id: number; requests: number; errors: number; cost_usd: number }[];
}

interface OrganisationWallet {
  balance_usd: number;
  total_usage_usd?: number;
}

export interface OrganisationCall {
  id: number;
  created_at: string;
  key_name: string | null;
  model: string;
  status: number;
  cost_usd: number;
}

const base = (id: number) => `/api/orgs/${id}`;

/** Who may do what, as the server decides it (the pages hide what a role cannot do). */
export const canManage = (role: OrganisationRole | undefined) => role === 'owner' || role === 'admin';
export const canPay = (role: OrganisationRole | undefined) => role === 'owner' || role === 'billing';

export const organisationsApi = {
  list: async () => (await api.get<{ data: Organisation[] }>('/api/orgs')).data,
  create: (name: string) => api.post<Organisation>('/api/orgs', { name }),
  get: (id: number) => api.get<Organisation>(base(id)),
  members: async (id: number) => (await api.get<{ data: Member[] }>(`${base(id)}/members`)).data,
  changeMember: (id: number, userId: number, changes: { role?: OrganisationRole; monthly_cap_usd?: number | null }) => api.patch(`${base(id)}/members/${userId}`, changes),
  removeMember: (id: number, userId: number) => api.delete(`${base(id)}/members/${userId}`),
  transfer: (id: number, userId: number) => api.post(`${base(id)}/transfer`, { user_id: userId }),
  invites: async (id: number) => (await api.get<{ data: Invite[] }>(`${base(id)}/invites`)).data,
  invite: (id: number, email: string, role: OrganisationRole) => api.post<Invite>(`${base(id)}/invites`, { email, role }),
  revokeInvite: (id: number, inviteId: number) => api.delete(`${base(id)}/invites/${inviteId}`),
  join: (token: string) => api.post<{ organisation_id: number; name: string; role: OrganisationRole }>('/api/orgs/join', { token }),
  keys: async (id: number) => (await api.get<{ data: OrganisationKey[] }>(`${base(id)}/keys`)).data,
  createKey: (id: number, name: string) => api.post<OrganisationKey & { key: string }>(`${base(id)}/keys`, { name }),
  deleteKey: (id: number, keyId: number) => api.delete(`${base(id)}/keys/${keyId}`),
  logs: async (id: number, memberId: number | null) => (await api.get<{ data: OrganisationCall[] }>(`${base(id)}/logs?limit=50${memberId === null ? '' : `&member_id=${memberId}`}`)).data,
  stats: (id: number) => api.get<OrganisationStats>(`${base(id)}/stats?bucket=day&from=${Date.now() - 30 * 86_400_000}`),
  wallet: (id: number) => api.get<OrganisationWallet>(`${base(id)}/wallet?limit=20`),
  redeem: (id: number, code: string) => api.post<{ amount_usd: number; balance_usd: number }>(`${base(id)}/wallet/redeem`, { code }),
  topUp: (id: number, amountUsd: number) => api.post<{ checkout_url: string }>(`${base(id)}/wallet/topup`, { amount_usd: amountUsd }),
};
