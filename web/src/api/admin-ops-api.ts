// The operator's view (/api/admin/overview, /api/admin/logs with filters and CSV, channel balance, the
// upstream's model list, test all channels), as the admin pages use it.
import { api } from './api-client.ts';
import type { ApiBody } from './api-types.ts';

export interface OverviewChannel {
  id: number;
  name: string;
  type: string;
  status: 'enabled' | 'disabled' | 'auto_disabled';
  status_reason: string | null;
  breaker: 'closed' | 'open' | 'half-open';
  failed_attempts_last_hour: number;
  failed_attempts_counted_partly: boolean;
  /** Where the count starts: an hour ago, or later when the hour had more than 500 failed calls (exact since then). */
  failed_attempts_since: string;
  last_error: { at: string; status: number | null; code: string | null; message: string | null } | null;
}

interface PlatformOverview {
  bucket: 'minute' | 'hour' | 'day';
  from: string;
  to: string;
  traffic: { requests: number; errors: number; input_tokens: number; output_tokens: number; rpm: number; tpm: number };
  cost_usd: number;
  revenue: { total_usd: number; topups: { count: number; amount_usd: number; refunded_usd: number }; redemptions: { count: number; amount_usd: number } };
  series: { start: string; requests: number; errors: number; cost_usd: number }[];
  top_models: { model: string; requests: number; errors: number; input_tokens: number; output_tokens: number; cost_usd: number }[];
  top_users: { user_id: number; name: string | null; email: string | null; requests: number; errors: number; cost_usd: number }[];
  channels: OverviewChannel[];
}

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

export interface AdminLogRow {
  id: number;
  created_at: string;
  request_id: string;
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
  key_id: number | null;
  key_name: string | null;
  model: string;
  channel: string | null;
  status: number;
  outcome: 'success' | 'error';
  error: string | null;
  error_code: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_ms: number;
}

export type ChannelBalance = { channel: string; checked_at: string } & (
  | { available: true; balance_usd: number; limit_usd: number | null; used_usd: number | null; source: string }
  | { available: false; reason: string }
);

export type UpstreamModels = { channel: string } & ({ available: true; models: { id: string; served: boolean }[] } | { available: false; status: number | null; reason: string });

interface ChannelTestAllResult {
  channel_id: number;
  channel: string;
  model: string;
  ok: boolean;
  status: number | null;
  latency_ms: number;
  error: string | null;
  reenabled: boolean;
}

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
  logs: (filters: AdminLogFilters, cursor: string | null) => api.get<{ data: AdminLogRow[]; next_cursor: string | null }>(`/api/admin/logs?${adminLogQuery(filters, cursor)}`),
  log: (id: number) => api.get<Record<string, unknown>>(`/api/admin/logs/${id}`),
  logsCsvUrl: (filters: AdminLogFilters) => `/api/admin/logs.csv?${adminLogQuery(filters)}`,
  balance: (id: number) => api.get<ChannelBalance>(`/api/admin/channels/${id}/balance`),
  upstreamModels: (id: number) => api.get<UpstreamModels>(`/api/admin/channels/${id}/upstream-models`),
  testAll: (reenable: boolean) => api.post<{ data: ChannelTestAllResult[]; passed: number; failed: number; skipped: { channel_id: number; reason: string }[] }>('/api/admin/channels/test-all', { reenable }),
};

/** A key as GET /api/admin/keys lists it (never the secret): the owner, the restrictions and the limits. */
export interface AdminKeyRow {
  id: number;
  name: string;
  key_prefix: string;
  group_name: string;
  status: 'active' | 'disabled' | 'deleted';
  quota_micros: number | null;
  used_micros: number;
  expires_at: number | null;
  created_at: number;
  last_used_at: number | null;
  user: string;
  user_email: string | null;
  models_json: string | null;
  ip_allowlist_json: string | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
}

/** What PATCH /api/admin/keys/:id changes (POST adds the owner and the name). */
export type AdminKeyFields = ApiBody<'/api/admin/keys/{id}', 'patch'>;

export const adminKeysApi = {
  list: async () => (await api.get<{ data: AdminKeyRow[] }>('/api/admin/keys')).data,
  create: (body: ApiBody<'/api/admin/keys', 'post'>) => api.post<{ id: number; key: string }>('/api/admin/keys', body),
  update: (id: number, body: AdminKeyFields) => api.patch(`/api/admin/keys/${id}`, body),
  remove: (id: number) => api.delete(`/api/admin/keys/${id}`),
};
