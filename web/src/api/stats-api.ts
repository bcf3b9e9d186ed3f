// Statistics (/api/stats) for the overview and usage pages: totals, a series by minute, hour or day, and
// breakdowns by model and by key (the keys the server lists, then one row for those it summed).
import { api } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';

type StatsAnswer = ApiAnswer<'/api/stats', 'get'>;

export type Bucket = StatsAnswer['bucket'];

/** A bucket of the series, as the charts read it (the zero-filled ones have no micro-USD). */
export type StatPoint = Pick<StatsAnswer['series'][number], 'start' | 'requests' | 'errors' | 'inputTokens' | 'outputTokens' | 'costUsd'>;

export interface Breakdown extends Omit<StatPoint, 'start'> {
  label: string;
}

interface Stats {
  totals: StatsAnswer['totals'];
  series: StatPoint[];
  byModel: Breakdown[];
  byKey: Breakdown[];
  rpm: number;
  tpm: number;
}

const counters = ({ requests, errors, inputTokens, outputTokens, costUsd }: Omit<StatPoint, 'start'>) => ({ requests, errors, inputTokens, outputTokens, costUsd });

export function readStats(answer: StatsAnswer): Stats {
  return {
    totals: answer.totals,
    series: answer.series,
    byModel: answer.by_model.map((row) => ({ label: row.model, ...counters(row) })),
    byKey: [
      ...answer.by_key.map((row) => ({ label: row.key_name ?? String(row.key_id), ...counters(row) })),
      // The server lists the keys that cost most and sums the others (by_key_rest): one row for those.
      ...(answer.by_key_rest ? [{ label: `Other keys (${answer.by_key_rest.keys})`, ...counters(answer.by_key_rest) }] : []),
    ],
    rpm: answer.rpm,
    tpm: answer.tpm,
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
  return readStats(await api.get<StatsAnswer>(`/api/stats?${params}`));
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
