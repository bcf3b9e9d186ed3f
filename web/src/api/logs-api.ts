// Usage logs (/api/logs): one page at a time with a cursor, one call's detail, and the CSV export.
import { api } from './api-client.ts';

export interface LogFilters {
  from: number | null;
  to: number | null;
  key: string | null;
  model: string | null;
  outcome: 'success' | 'error' | null;
}

export interface LogRow {
  id: string;
  createdAt: string | null;
  keyName: string;
  model: string;
  endpoint: string;
  status: number | null;
  outcome: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  durationMs: number | null;
  stream: boolean;
  error: string | null;
  raw: Record<string, unknown>;
}

const num = (...values: unknown[]) => {
  for (const value of values) if (typeof value === 'number' && Number.isFinite(value)) return value;
  for (const value of values) if (typeof value === 'string' && value !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
};

export function readLog(raw: Record<string, unknown>): LogRow {
  const status = num(raw.status, raw.status_code);
  const micros = num(raw.cost_micros);
  return {
    id: String(raw.id ?? raw.request_id ?? ''),
    createdAt: typeof raw.created_at === 'string' ? raw.created_at : typeof raw.created_at === 'number' ? new Date(raw.created_at).toISOString() : null,
    keyName: String(raw.key_name ?? raw.key ?? ''),
    model: String(raw.model ?? ''),
    endpoint: String(raw.endpoint ?? ''),
    status,
    outcome: String(raw.outcome ?? (status !== null && status < 400 ? 'success' : 'error')),
    inputTokens: num(raw.input_tokens, raw.prompt_tokens) ?? 0,
    outputTokens: num(raw.output_tokens, raw.completion_tokens) ?? 0,
    costUsd: num(raw.cost_usd) ?? (micros !== null ? micros / 1_000_000 : 0),
    durationMs: num(raw.duration_ms, raw.latency_ms),
    stream: raw.stream === true || raw.stream === 1,
    error: typeof raw.error === 'string' ? raw.error : typeof raw.error_message === 'string' ? raw.error_message : null,
    raw,
  };
}

function logQuery(filters: LogFilters, cursor: string | null = null): string {
  const params = new URLSearchParams();
  if (filters.from !== null) params.set('from', String(filters.from));
  if (filters.to !== null) params.set('to', String(filters.to));
  if (filters.key) params.set('key_id', filters.key);
  if (filters.model) params.set('model', filters.model);
  if (filters.outcome) params.set('outcome', filters.outcome);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

export async function fetchLogs(filters: LogFilters, cursor: string | null): Promise<{ rows: LogRow[]; nextCursor: string | null }> {
  const answer = await api.get<{ data?: Array<Record<string, unknown>>; next_cursor?: string | null }>(`/api/logs?${logQuery(filters, cursor)}`);
  return { rows: (answer.data ?? []).map(readLog), nextCursor: answer.next_cursor ?? null };
}

export async function fetchLog(id: string): Promise<Record<string, unknown>> {
  const answer = await api.get<Record<string, unknown>>(`/api/logs/${encodeURIComponent(id)}`);
  return (answer.data ?? answer) as Record<string, unknown>;
}

export const csvExportUrl = (filters: LogFilters) => `/api/logs.csv?${logQuery(filters)}`;
