// A statistics series on a real time axis: one point per bucket from the start of the range to its end,
// zero where nothing happened (the server returns only buckets with calls), so an idle night reads as
// zero instead of a line drawn straight across it. Buckets are epoch-aligned (UTC), as the server's are.
import type { Bucket, StatPoint } from './stats-api.ts';

export const BUCKET_MS: Record<Bucket, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Guards the page against a range that would draw tens of thousands of points. */
const MAX_POINTS = 5_000;

export function zeroFilledSeries(series: readonly StatPoint[], from: number, to: number, bucket: Bucket): StatPoint[] {
  const size = BUCKET_MS[bucket];
  const first = Math.floor(from / size) * size;
  const byStart = new Map(series.map((point) => [point.start, point]));
  const points: StatPoint[] = [];
  for (let start = first; start < to && points.length < MAX_POINTS; start += size) {
    points.push(byStart.get(start) ?? { start, requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
    byStart.delete(start);
  }
  // A point off the grid (another alignment) is kept, never dropped, in time order.
  return byStart.size === 0 ? points : [...points, ...byStart.values()].sort((a, b) => a.start - b.start);
}
