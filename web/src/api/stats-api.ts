// Statistics (/api/stats) for the overview and usage pages: totals, a series by minute, hour or day, and
// breakdowns by model and by key, read into one shape whatever the casing of the answer.
import { api } from './api-client.ts';

export type Bucket = 'minute' | 'hour' | 'day';

export interface StatPoint {
  start: number;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface Breakdown extends Omit<StatPoint, 'start'> {
  label: string;
}

interface Stats {
  totals: Omit<StatPoint, 'start'>;
  series: StatPoint[];
  byModel: Breakdown[];
  byKey: Breakdown[];
  rpm: number;
  tpm: number;
}

const num = (...values: unknown[]) => {
  for (const value of values) if (typeof value === 'number' && Number.isFinite(value)) return value;
  for (const value of values) if (typeof value === 'string' && value !== '' && Number.isFinite(Number(value))) return Number(value);
  return 0;
};

function readPoint(raw: Record<string, unknown>): Omit<StatPoint, 'start'> {
  const micros = raw.costMicros ?? raw.cost_micros;
  return {
    requests: num(raw.requests),
    errors: num(raw.errors),
    inputTokens: num(raw.inputTokens, raw.input_tokens),
    outputTokens: num(raw.outputTokens, raw.output_tokens),
    costUsd: typeof raw.costUsd === 'number' || typeof raw.cost_usd === 'number' ? num(raw.costUsd, raw.cost_usd) : num(micros) / 1_000_000,
  };
}

const list = (value: unknown) => (Array.isArray(value) ? (value as Array<Record<string, unknown>>) : []);

/** The server lists the keys that cost most and sums the others (by_key_rest): one row for those. */
function otherKeys(rest: unknown): Breakdown[] {
  if (rest === null || typeof rest !== 'object') return [];
  const row = rest as Record<string, unknown>;
  const keys = num(row.keys);
  return [{ label: `Other keys (${keys})`, ...readPoint(row) }];
}

export function readStats(raw: Record<string, unknown>): Stats {
  return {
    totals: readPoint((raw.totals ?? {}) as Record<string, unknown>),
    series: list(raw.series).map((point) => ({ start: num(point.start, point.bucket_start, Date.parse(String(point.time ?? ''))), ...readPoint(point) })),
    byModel: list(raw.by_model ?? raw.byModel).map((row) => ({ label: String(row.model ?? ''), ...readPoint(row) })),
    byKey: [...list(raw.by_key ?? raw.byKey).map((row) => ({ label: String(row.key_name ?? row.name ?? row.key ?? row.key_id ?? ''), ...readPoint(row) })), ...otherKeys(raw.by_key_rest)],
    rpm: num(raw.rpm),
    tpm: num(raw.tpm),
  };
}

interface StatsQuery {
  from: number;
  to: number;
  bucket: Bucket;
  key?: string | null;
}

export async function fetchStats(query: StatsQuery): Promise<Stats> {
  const params = new URLSearchParams({ from: String(Math.round(query.from)), to: String(Math.round(query.to)), bucket: query.bucket });
  if (query.key) params.set('key_id', query.key);
  params.set('scope', query.key ? 'key' : 'user');
  return readStats(await api.get<Record<string, unknown>>(`/api/stats?${params}`));
}

/** A range ending now, with a bucket that gives a readable number of points. */
export function rangeFor(choice: '1h' | '24h' | '7d' | '30d', now = Date.now()): { from: number; to: number; bucket: Bucket } {
  switch (choice) {
    case '1h':
      return { from: now - 3_600_000, to: now, bucket: 'minute' };
    case '24h':
      return { from: now - 86_400_000, to: now, bucket: 'hour' };
    case '7d':
      return { from: now - 7 * 86_400_000, to: now, bucket: 'hour' };
    case '30d':
      return { from: now - 30 * 86_400_000, to: now, bucket: 'day' };
  }
}
