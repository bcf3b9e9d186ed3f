// Usage logs (/api/logs): one page at a time with a cursor, one call's detail, and the CSV export.
import { api } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';

export interface LogFilters {
  from: number | null;
  to: number | null;
  key: string | null;
  model: string | null;
  outcome: 'success' | 'error' | null;
}

/** One call as the list shows it. */
export type LogRow = ApiAnswer<'/api/logs', 'get'>['data'][number];
/** One call with how its charge was computed and its attempts. */
export type LogDetail = ApiAnswer<'/api/logs/{id}', 'get'>;

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
  const answer = await api.get<ApiAnswer<'/api/logs', 'get'>>(`/api/logs?${logQuery(filters, cursor)}`);
  return { rows: answer.data, nextCursor: answer.next_cursor };
}

export const fetchLog = (id: number) => api.get<LogDetail>(`/api/logs/${id}`);

export const csvExportUrl = (filters: LogFilters) => `/api/logs.csv?${logQuery(filters)}`;
