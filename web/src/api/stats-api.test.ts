// The usage page's by-key table: the keys the server lists, then one row for the keys it summed
// (by_key_rest, when a range has more keys than /api/stats lists).
import { describe, expect, it } from 'vitest';
import { readStats } from './stats-api.ts';

const point = { requests: 4, errors: 1, inputTokens: 100, outputTokens: 50, costMicros: 2_500_000, costUsd: 2.5 };
const answer: Omit<Parameters<typeof readStats>[0], 'by_key' | 'by_key_rest'> = { scope: 'user', bucket: 'hour', from: 0, to: 3_600_000, rpm: 0, tpm: 0, totals: { ...point, avgRpm: 0, avgTpm: 0 }, series: [], by_model: [] };

describe('reading /api/stats', () => {
  it('adds one "Other keys" row for by_key_rest after the listed keys', () => {
    const stats = readStats({ ...answer, by_key: [{ key_id: 7, key_name: 'laptop', ...point }], by_key_rest: { keys: 3, ...point, requests: 9, costUsd: 0.75 } });
    expect(stats.byKey).toEqual([
      { label: 'laptop', requests: 4, errors: 1, inputTokens: 100, outputTokens: 50, costUsd: 2.5 },
      { label: 'Other keys (3)', requests: 9, errors: 1, inputTokens: 100, outputTokens: 50, costUsd: 0.75 },
    ]);
  });

  it('adds nothing when every key is listed (by_key_rest null)', () => {
    expect(readStats({ ...answer, by_key: [{ key_id: 7, key_name: 'laptop', ...point }], by_key_rest: null }).byKey.map((row) => row.label)).toEqual(['laptop']);
  });
});
