// The usage page's by-key table: the keys the server lists, then one row for the keys it summed
// (by_key_rest, when a range has more keys than /api/stats lists).
import { describe, expect, it } from 'vitest';
import { readStats } from './stats-api.ts';

const point = { requests: 4, errors: 1, inputTokens: 100, outputTokens: 50, costMicros: 2_500_000, costUsd: 2.5 };

describe('reading /api/stats', () => {
  it('adds one "Other keys" row for by_key_rest after the listed keys', () => {
    const stats = readStats({ totals: point, series: [], by_model: [], by_key: [{ key_id: 7, key_name: 'laptop', ...point }], by_key_rest: { keys: 3, ...point, requests: 9, costUsd: 0.75 } });
    expect(stats.byKey).toEqual([
      { label: 'laptop', requests: 4, errors: 1, inputTokens: 100, outputTokens: 50, costUsd: 2.5 },
      { label: 'Other keys (3)', requests: 9, errors: 1, inputTokens: 100, outputTokens: 50, costUsd: 0.75 },
    ]);
  });

  it('adds nothing when every key is listed (by_key_rest null) or the server predates it', () => {
    expect(readStats({ by_key: [{ key_id: 7, key_name: 'laptop', ...point }], by_key_rest: null }).byKey.map((row) => row.label)).toEqual(['laptop']);
    expect(readStats({ by_key: [{ key_id: 7, key_name: 'laptop', ...point }] }).byKey.map((row) => row.label)).toEqual(['laptop']);
  });
});
