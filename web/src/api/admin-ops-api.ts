// The operator's view (/api/admin/overview, /api/admin/logs with filters and CSV, channel balance, the
// upstream's model list, test all channels), as the admin pages use it.
import { api } from './api-client.ts';
import type { ApiAnswer, ApiBody } from './api-types.ts';

type PlatformOverview = ApiAnswer<'/api/admin/overview', 'get'>;
export type OverviewChannel = PlatformOverview['channels'][number];

export interface AdminLogFilters {
  from: number | null;
  to: number | null;
  user: string | null;
  keyId: string | null;
  model: string | null;
  channelId: string | null;
  outcome: 'success' | 'error' | null;
  status: string | null;
  errorCode: string | null;
}

export type AdminLogRow = ApiAnswer<'/api/admin/logs', 'get'>['data'][number];

export type ChannelBalance = ApiAnswer<'/api/admin/channels/{id}/balance', 'get'>;
export type UpstreamModels = ApiAnswer<'/api/admin/channels/{id}/upstream-models', 'get'>;

function adminLogQuery(filters: AdminLogFilters, cursor: string | null = null): string {
  const params = new URLSearchParams();
  const set = (name: string, value: string | number | null) => {
    if (value !== null && value !== '') params.set(name, String(value));
  };
  set('from', filters.from);
  set('to', filters.to);
  set('user', filters.user);
  set('key_id', filters.keyId);
  set('model', filters.model);
  set('channel_id', filters.channelId);
  set('outcome', filters.outcome);
  set('status', filters.status);
  set('error_code', filters.errorCode);
  set('cursor', cursor);
  return params.toString();
}

export const adminOpsApi = {
  overview: (from: number, to: number, bucket: 'hour' | 'day') => api.get<PlatformOverview>(`/api/admin/overview?${new URLSearchParams({ from: String(from), to: String(to), bucket })}`),
  logs: (filters: AdminLogFilters, cursor: string | null) => api.get<ApiAnswer<'/api/admin/logs', 'get'>>(`/api/admin/logs?${adminLogQuery(filters, cursor)}`),
  log: (id: number) => api.get<ApiAnswer<'/api/admin/logs/{id}', 'get'>>(`/api/admin/logs/${id}`),
  logsCsvUrl: (filters: AdminLogFilters) => `/api/admin/logs.csv?${adminLogQuery(filters)}`,
  balance: (id: number) => api.get<ChannelBalance>(`/api/admin/channels/${id}/balance`),
  upstreamModels: (id: number) => api.get<UpstreamModels>(`/api/admin/channels/${id}/upstream-models`),
  testAll: (reenable: boolean) => api.post<ApiAnswer<'/api/admin/channels/test-all', 'post'>>('/api/admin/channels/test-all', { reenable } satisfies ApiBody<'/api/admin/channels/test-all', 'post'>),
};

/** A key as GET /api/admin/keys lists it (never the secret): the owner, the restrictions and the limits. */
export type AdminKeyRow = ApiAnswer<'/api/admin/keys', 'get'>['data'][number];

/** What PATCH /api/admin/keys/:id changes (POST adds the owner and the name). */
export type AdminKeyFields = ApiBody<'/api/admin/keys/{id}', 'patch'>;

export const adminKeysApi = {
  list: async () => (await api.get<ApiAnswer<'/api/admin/keys', 'get'>>('/api/admin/keys')).data,
  create: (body: ApiBody<'/api/admin/keys', 'post'>) => api.post<ApiAnswer<'/api/admin/keys', 'post'>>('/api/admin/keys', body),
  update: (id: number, body: AdminKeyFields) => api.patch(`/api/admin/keys/${id}`, body),
  remove: (id: number) => api.delete(`/api/admin/keys/${id}`),
};
