// The administration API (/api/admin/...), as the admin pages use it.
import { api } from './api-client.ts';
import type { ApiAnswer, ApiBody } from './api-types.ts';

const rows = <T>(answer: unknown): T[] => ((answer as { data?: T[] }).data ?? (Array.isArray(answer) ? (answer as T[]) : []));

export interface AdminUser {
  id: number;
  email: string | null;
  name: string;
  role: 'user' | 'admin';
  kind?: 'person' | 'organisation';
  status: 'active' | 'disabled';
  email_verified: boolean;
  two_factor_enabled: boolean;
  balance_usd: number;
  rpm_limit: number | null;
  tpm_limit: number | null;
  created_at: string;
}

export interface AdminChannel {
  id: number;
  name: string;
  type: string;
  base_url?: string;
  /** The format chat is sent in, for types that offer several (OpenAI: openai-responses for models served only on /v1/responses). */
  chat_format?: string;
  /** Endpoints the upstream lacks although its type has them (an OpenAI-compatible server without /v1/responses). */
  unsupported_endpoints?: string[];
  /** true: HTTP/2 to the upstream (h2 over TLS, h2c over http); false: HTTP/1.1 only; absent: automatic. */
  http2?: boolean;
  /** true: Responses WebSocket turns over the upstream's own WebSocket; false: streamed POSTs; absent: the type's default (on for OpenAI). */
  responses_websocket?: boolean;
  models: string[];
  model_mapping: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  enabled: boolean;
  status: string;
  status_reason: string | null;
  /** Whether the upstream continues an assistant prefill; absent: the type's default. */
  supports_prefill?: boolean;
  timeouts?: { connect_ms?: number; headers_ms?: number; first_token_ms?: number; idle_ms?: number };
  /** The type's own settings (Bedrock's region, Azure's azure block, …), as its ChannelTypeView's schema describes them. */
  [setting: string]: unknown;
}

/** The part of JSON Schema the channel form reads (a field's type, choices, label, help, placeholder, secret mark). */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  title?: string;
  description?: string;
  examples?: unknown[];
  secret?: boolean;
}

/** GET /api/admin/channel-types: a channel type and its own settings, for the channel form. */
export interface ChannelTypeView {
  type: string;
  chat_formats: string[];
  needs_base_url: string | null;
  credential: { label: string; description: string } | null;
  settings: JsonSchema;
}

/** POST /api/admin/channels/:id/test: ok:false carries the upstream's status (null: no answer) and error. */
export interface ChannelTestOutcome {
  channel: string;
  model: string;
  ok: boolean;
  status: number | null;
  latency_ms: number;
  error: string | null;
  reenabled: boolean;
}

export interface AdminModel {
  id: string;
  owned_by: string;
  input_per_mtok?: number;
  cached_input_per_mtok?: number;
  output_per_mtok?: number;
  per_request?: number;
  free: boolean;
  [field: string]: unknown;
}

export interface AdminGroup {
  id: number;
  name: string;
  ratio: number;
  description: string | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
}

interface AuditEntry {
  id: number;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  at: string;
}

/** An upstream MCP server (/api/admin/mcp-servers); its credential only as its kind and header names. */
export interface AdminMcpServer {
  id: number;
  name: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  groups: string[];
  enabled: boolean;
  price_per_call: number;
  timeout_ms: number | null;
  rpm_limit: number | null;
  log_payloads: boolean;
  allow_private_network: boolean;
  credential: { kind: 'none' | 'headers' | 'oauth' | 'unreadable'; header_names?: string[]; client_id?: string };
}

/** POST /api/admin/mcp-servers/:id/test: connected and listed its tools, or why not. */
export interface McpServerTestOutcome {
  name: string;
  ok: boolean;
  latency_ms: number;
  tools: { name: string; description: string | null }[];
  error: string | null;
}

/** PUT /api/admin/settings: each part is optional; a part given replaces that setting. */
type Settings = ApiBody<'/api/admin/settings', 'put'>;

export const adminApi = {
  mcpServers: async () => rows<AdminMcpServer>(await api.get('/api/admin/mcp-servers')),
  createMcpServer: (body: Record<string, unknown>) => api.post('/api/admin/mcp-servers', body),
  updateMcpServer: (id: number, body: Record<string, unknown>) => api.patch(`/api/admin/mcp-servers/${id}`, body),
  deleteMcpServer: (id: number) => api.delete(`/api/admin/mcp-servers/${id}`),
  testMcpServer: (id: number) => api.post<McpServerTestOutcome>(`/api/admin/mcp-servers/${id}/test`, {}),

  users: async (q: string) => {
    const answer = await api.get<{ data: AdminUser[]; next_cursor: string | null }>(`/api/admin/users?${new URLSearchParams(q ? { q, limit: '100' } : { limit: '100' })}`);
    return answer.data;
  },
  createUser: (body: ApiBody<'/api/admin/users', 'post'>) => api.post<{ user: AdminUser; set_password_url: string | null }>('/api/admin/users', body),
  updateUser: (id: number, body: ApiBody<'/api/admin/users/{id}', 'patch'>) => api.patch(`/api/admin/users/${id}`, body),
  resetTwoFactor: (id: number) => api.post(`/api/admin/users/${id}/reset-2fa`),
  grant: (id: number, amount_usd: number, note: string) => api.post(`/api/admin/users/${id}/grant`, { amount_usd, ...(note ? { note } : {}) } satisfies ApiBody<'/api/admin/users/{id}/grant', 'post'>),

  channels: async () => rows<AdminChannel>(await api.get('/api/admin/channels')),
  channelTypes: async () => rows<ChannelTypeView>(await api.get('/api/admin/channel-types')),
  createChannel: (body: Record<string, unknown>) => api.post('/api/admin/channels', body),
  updateChannel: (id: number, body: Record<string, unknown>) => api.patch(`/api/admin/channels/${id}`, body),
  deleteChannel: (id: number) => api.delete(`/api/admin/channels/${id}`),
  testChannel: (id: number, reenable: boolean) => api.post<ChannelTestOutcome>(`/api/admin/channels/${id}/test`, reenable ? { reenable: true } : {}),

  models: async () => rows<AdminModel>(await api.get('/api/admin/models')),
  putModel: (body: Record<string, unknown>) => api.put('/api/admin/models', body),
  deleteModel: (id: string) => api.delete(`/api/admin/models/${encodeURIComponent(id)}`),

  groups: async () => rows<AdminGroup>(await api.get('/api/admin/groups')),
  putGroup: (body: Record<string, unknown>) => api.put('/api/admin/groups', body),
  deleteGroup: (name: string) => api.delete(`/api/admin/groups/${encodeURIComponent(name)}`),

  audit: async () => rows<Record<string, unknown>>(await api.get('/api/admin/audit?limit=200')),

  settings: () => api.get<{ registration: { mode: 'open' | 'closed' | 'domains'; domains: string[] }; self_service_groups: string[]; pricing_page: { enabled: boolean }; mail: AdminMailSettings }>('/api/admin/settings'),
  putSelfServiceGroups: (self_service_groups: string[]) => api.put('/api/admin/settings', { self_service_groups } satisfies Settings),
  putPricingPage: (enabled: boolean) => api.put('/api/admin/settings', { pricing_page: { enabled } } satisfies Settings),
  putRegistration: (registration: NonNullable<Settings['registration']>) => api.put('/api/admin/settings', { registration } satisfies Settings),
  /** A value overrides SMTP_URL / MAIL_FROM; null goes back to them; a field left out stays as it is. */
  putMail: (mail: NonNullable<Settings['mail']>) => api.put('/api/admin/settings', { mail } satisfies Settings),
  testMail: (to: string) => api.post<{ sent: boolean; error?: string; transport: string }>('/api/admin/settings/test-mail', { to } satisfies ApiBody<'/api/admin/settings/test-mail', 'post'>),

  payments: async () => (await api.get<ApiAnswer<'/api/admin/payments', 'get'>>('/api/admin/payments?limit=100')).data,
  putPaymentSettings: (max_topup_usd: number) => api.put<ApiAnswer<'/api/admin/payments/settings', 'put'>>('/api/admin/payments/settings', { max_topup_usd } satisfies ApiBody<'/api/admin/payments/settings', 'put'>),
  /** One page of codes, newest first; `cursor` is the previous page's next_cursor. */
  redemptionCodes: (page: { cursor: string | null; state: CodeState | null; limit?: number }) =>
    api.get<ApiAnswer<'/api/admin/redemption-codes', 'get'>>(`/api/admin/redemption-codes?${new URLSearchParams({
      limit: String(page.limit ?? 50), ...(page.cursor ? { cursor: page.cursor } : {}), ...(page.state ? { state: page.state } : {}),
    })}`),
  createRedemptionCodes: (count: number, amount_usd: number, note: string) => api.post<ApiAnswer<'/api/admin/redemption-codes', 'post'>>('/api/admin/redemption-codes', { count, amount_usd, ...(note ? { note } : {}) } satisfies ApiBody<'/api/admin/redemption-codes', 'post'>),
  revokeRedemptionCode: (id: number) => api.post<ApiAnswer<'/api/admin/redemption-codes/{id}/revoke', 'post'>>(`/api/admin/redemption-codes/${id}/revoke`),
};

/** A redemption code as the list shows it: never the code itself, only its first characters. */
export type RedemptionCode = ApiAnswer<'/api/admin/redemption-codes', 'get'>['data'][number];
export type CodeState = RedemptionCode['state'];

/** The mail settings as the gateway shows them: the SMTP URL is write-only (only whether it is set, and its host). */
export interface AdminMailSettings {
  transport: 'smtp' | 'file';
  smtp_url_set: boolean;
  smtp_host: string | null;
  smtp_source: 'runtime' | 'env' | 'none';
  /** Set when the runtime SMTP URL cannot be decrypted (GATEWAY_SECRET changed): set it again. */
  smtp_error: string | null;
  from: string;
  from_source: 'runtime' | 'env';
  public_url: string;
}
