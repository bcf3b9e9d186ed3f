// The administration API (/api/admin/...), as the admin pages use it.
import { api } from './api-client.ts';
import type { ApiAnswer, ApiBody } from './api-types.ts';

const rows = <T>(answer: unknown): T[] => ((answer as { data?: T[] }).data ?? (Array.isArray(answer) ? (answer as T[]) : []));

export type AdminUser = ApiAnswer<'/api/admin/users/{id}', 'get'>;
/** A channel; the type's own settings (Bedrock's region, Azure's azure block, …) are further keys, as its ChannelTypeView's schema describes them. */
export type AdminChannel = ApiAnswer<'/api/admin/channels', 'get'>['data'][number];

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

/**
 * GET /api/admin/channel-types: a channel type and its own settings, for the channel form. The server
 * declares `settings` as any JSON object (it is zod's JSON Schema of the type's settings); the form reads
 * it as the JSON Schema it is.
 */
export type ChannelTypeView = Omit<ApiAnswer<'/api/admin/channel-types', 'get'>['data'][number], 'settings'> & { settings: JsonSchema };

/** POST /api/admin/channels/:id/test: ok:false carries the upstream's status (null: no answer) and error. */
export type ChannelTestOutcome = ApiAnswer<'/api/admin/channels/{id}/test', 'post'>;
export type AdminModel = ApiAnswer<'/api/admin/models', 'get'>['data'][number];
export type AdminGroup = ApiAnswer<'/api/admin/groups', 'get'>['data'][number];
/** An upstream MCP server (/api/admin/mcp-servers); its credential only as its kind and header names. */
export type AdminMcpServer = ApiAnswer<'/api/admin/mcp-servers', 'get'>['data'][number];
/** POST /api/admin/mcp-servers/:id/test: connected and listed its tools, or why not. */
export type McpServerTestOutcome = ApiAnswer<'/api/admin/mcp-servers/{id}/test', 'post'>;
type AdminSettings = ApiAnswer<'/api/admin/settings', 'get'>;
/** The mail settings as the gateway shows them: the SMTP URL is write-only (only whether it is set, and its host). */
export type AdminMailSettings = AdminSettings['mail'];

/** PUT /api/admin/settings: each part is optional; a part given replaces that setting. */
type Settings = ApiBody<'/api/admin/settings', 'put'>;

export const adminApi = {
  mcpServers: async () => (await api.get<ApiAnswer<'/api/admin/mcp-servers', 'get'>>('/api/admin/mcp-servers')).data,
  createMcpServer: (body: Record<string, unknown>) => api.post('/api/admin/mcp-servers', body),
  updateMcpServer: (id: number, body: Record<string, unknown>) => api.patch(`/api/admin/mcp-servers/${id}`, body),
  deleteMcpServer: (id: number) => api.delete(`/api/admin/mcp-servers/${id}`),
  testMcpServer: (id: number) => api.post<McpServerTestOutcome>(`/api/admin/mcp-servers/${id}/test`, {}),

  users: async (q: string) => {
    const answer = await api.get<ApiAnswer<'/api/admin/users', 'get'>>(`/api/admin/users?${new URLSearchParams(q ? { q, limit: '100' } : { limit: '100' })}`);
    return answer.data;
  },
  createUser: (body: ApiBody<'/api/admin/users', 'post'>) => api.post<ApiAnswer<'/api/admin/users', 'post'>>('/api/admin/users', body),
  updateUser: (id: number, body: ApiBody<'/api/admin/users/{id}', 'patch'>) => api.patch(`/api/admin/users/${id}`, body),
  resetTwoFactor: (id: number) => api.post(`/api/admin/users/${id}/reset-2fa`),
  grant: (id: number, amount_usd: number, note: string) => api.post(`/api/admin/users/${id}/grant`, { amount_usd, ...(note ? { note } : {}) } satisfies ApiBody<'/api/admin/users/{id}/grant', 'post'>),

  channels: async () => (await api.get<ApiAnswer<'/api/admin/channels', 'get'>>('/api/admin/channels')).data,
  channelTypes: async (): Promise<ChannelTypeView[]> => (await api.get<ApiAnswer<'/api/admin/channel-types', 'get'>>('/api/admin/channel-types')).data,
  createChannel: (body: Record<string, unknown>) => api.post('/api/admin/channels', body),
  updateChannel: (id: number, body: Record<string, unknown>) => api.patch(`/api/admin/channels/${id}`, body),
  deleteChannel: (id: number) => api.delete(`/api/admin/channels/${id}`),
  testChannel: (id: number, reenable: boolean) => api.post<ChannelTestOutcome>(`/api/admin/channels/${id}/test`, reenable ? { reenable: true } : {}),

  models: async () => (await api.get<ApiAnswer<'/api/admin/models', 'get'>>('/api/admin/models')).data,
  putModel: (body: Record<string, unknown>) => api.put('/api/admin/models', body),
  deleteModel: (id: string) => api.delete(`/api/admin/models/${encodeURIComponent(id)}`),

  groups: async () => (await api.get<ApiAnswer<'/api/admin/groups', 'get'>>('/api/admin/groups')).data,
  putGroup: (body: Record<string, unknown>) => api.put('/api/admin/groups', body),
  deleteGroup: (name: string) => api.delete(`/api/admin/groups/${encodeURIComponent(name)}`),

  audit: async () => (await api.get<ApiAnswer<'/api/admin/audit', 'get'>>('/api/admin/audit?limit=200')).data,

  settings: () => api.get<AdminSettings>('/api/admin/settings'),
  putSelfServiceGroups: (self_service_groups: string[]) => api.put('/api/admin/settings', { self_service_groups } satisfies Settings),
  putPricingPage: (enabled: boolean) => api.put('/api/admin/settings', { pricing_page: { enabled } } satisfies Settings),
  putRegistration: (registration: NonNullable<Settings['registration']>) => api.put('/api/admin/settings', { registration } satisfies Settings),
  /** A value overrides SMTP_URL / MAIL_FROM; null goes back to them; a field left out stays as it is. */
  putMail: (mail: NonNullable<Settings['mail']>) => api.put('/api/admin/settings', { mail } satisfies Settings),
  testMail: (to: string) => api.post<ApiAnswer<'/api/admin/settings/test-mail', 'post'>>('/api/admin/settings/test-mail', { to } satisfies ApiBody<'/api/admin/settings/test-mail', 'post'>),

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
