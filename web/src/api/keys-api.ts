// The user's own API keys (/api/keys), read into one shape for the pages.
import { api } from './api-client.ts';
import type { ApiBody } from './api-types.ts';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  group: string;
  models: string[] | null;
  /** MCP tools the key may use (server__tool, server__*); null: every tool of its group's servers. */
  mcp_tools: string[] | null;
  quota_usd: number | null;
  spent_usd: number;
  expires_at: string | null;
  ip_allowlist: string[] | null;
  status: 'active' | 'disabled';
  created_at: string | null;
  last_used_at: string | null;
}

/** What PATCH /api/keys/:id changes. */
export type KeyChanges = ApiBody<'/api/keys/{id}', 'patch'>;

const usd = (value: unknown, micros: unknown): number | null =>
  typeof value === 'number' ? value : typeof micros === 'number' ? micros / 1_000_000 : null;

function readKey(raw: Record<string, unknown>): ApiKey {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : null);
  return {
    id: String(raw.id),
    name: String(raw.name ?? ''),
    prefix: String(raw.prefix ?? raw.display_prefix ?? ''),
    group: String(raw.group ?? raw.group_name ?? 'default'),
    models: list(raw.models),
    mcp_tools: list(raw.mcp_tools),
    quota_usd: usd(raw.quota_usd, raw.quota_micros),
    spent_usd: usd(raw.spent_usd ?? raw.used_usd ?? raw.spend_usd, raw.used_micros) ?? 0,
    expires_at: typeof raw.expires_at === 'string' ? raw.expires_at : null,
    ip_allowlist: list(raw.ip_allowlist),
    status: raw.status === 'disabled' || raw.enabled === false ? 'disabled' : 'active',
    created_at: typeof raw.created_at === 'string' ? raw.created_at : null,
    last_used_at: typeof raw.last_used_at === 'string' ? raw.last_used_at : null,
  };
}

const rows = (answer: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(answer) ? answer : ((answer as { data?: unknown[] }).data ?? [])) as Array<Record<string, unknown>>;

export const keysApi = {
  list: async () => rows(await api.get('/api/keys')).map(readKey),
  create: async (changes: ApiBody<'/api/keys', 'post'>) => {
    const answer = await api.post<Record<string, unknown>>('/api/keys', changes);
    const key = (answer.key && typeof answer.key === 'object' ? answer.key : answer) as Record<string, unknown>;
    const secret = [answer.secret, answer.key, key.secret].find((value): value is string => typeof value === 'string' && value.startsWith('sk-'));
    return { key: readKey(key), secret: secret ?? '' };
  },
  update: async (id: string, changes: KeyChanges) => readKey(await api.patch<Record<string, unknown>>(`/api/keys/${encodeURIComponent(id)}`, changes)),
  rotate: async (id: string) => {
    const answer = await api.post<Record<string, unknown>>(`/api/keys/${encodeURIComponent(id)}/rotate`);
    const secret = [answer.secret, answer.key].find((value): value is string => typeof value === 'string' && value.startsWith('sk-'));
    return secret ?? '';
  },
  remove: (id: string) => api.delete(`/api/keys/${encodeURIComponent(id)}`),
};

export interface GroupChoice {
  name: string;
  description: string | null;
  models: string[];
}

export async function listGroups(): Promise<GroupChoice[]> {
  return rows(await api.get('/api/groups')).map((raw) => ({
    name: String(raw.name),
    description: typeof raw.description === 'string' ? raw.description : null,
    models: Array.isArray(raw.models) ? raw.models.map(String) : [],
  }));
}
