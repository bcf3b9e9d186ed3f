import { describe, expect, it } from 'vitest';
import { zeroFilledSeries } from './stats-series.ts';

const point = (start: number, requests: number, costUsd = 0) => ({ start, requests, errors: 0, inputTokens: 0, outputTokens: 0, costUsd });

describe('zeroFilledSeries', () => {
  it('puts a zero in every empty bucket from the start of the range to its end', () => {
    const hour = 3_600_000;
    const from = 10 * hour + 1_234; // mid-bucket: the first bucket is the one it falls in
    const filled = zeroFilledSeries([point(11 * hour, 3, 0.5), point(14 * hour, 1)], from, 15 * hour + 5, 'hour');
    expect(filled.map((p) => [p.start / hour, p.requests])).toEqual([[10, 0], [11, 3], [12, 0], [13, 0], [14, 1], [15, 0]]);
    expect(filled[1]!.costUsd).toBe(0.5);
  });

  it('keeps a point off the grid instead of dropping it', () => {
    const filled = zeroFilledSeries([point(90_000, 2)], 0, 180_000, 'minute');
    expect(filled.map((p) => [p.start, p.requests])).toEqual([[0, 0], [60_000, 0], [90_000, 2], [120_000, 0]]);
  });
});
