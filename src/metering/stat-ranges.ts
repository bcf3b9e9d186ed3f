// Covers a range of buckets with as few aggregate rows as possible: whole weeks from week buckets (the
// per-key roll-up only), whole days from day buckets, the hours at either end from hour buckets, the
// minutes at either end from minute buckets. Sums over the range (the by-key and by-model breakdowns)
// then read about a week's worth of rows per week instead of 7, 168 or 10,080 per week.
import { STAT_BUCKETS } from './metering-writer.ts';

export type StatBucketName = keyof typeof STAT_BUCKETS;

/**
 * Week buckets exist in usage_stats_keys only (migration 0011): the by-key breakdown sums a thousand keys,
 * so it is the read that gains from them; series never use them. Aligned to the epoch (a Thursday), like
 * every other bucket, so a week is exactly 7 day buckets; nobody sees where a week starts.
 */
export const WEEK_MS = 7 * 86_400_000;

export type CoverBucketName = StatBucketName | 'week';

/** Bucket starts `from` (inclusive) to `to` (exclusive) of one bucket size. */
export interface BucketSpan {
  bucket: CoverBucketName;
  from: number;
  to: number;
}

// Read at call time, not at load: metering-writer.ts imports this module through usage-stats-rollups.ts.
const sizeOf = (bucket: CoverBucketName) => (bucket === 'week' ? WEEK_MS : STAT_BUCKETS[bucket]);
/** The tables with week buckets pass `WITH_WEEKS`; the others stop at days. */
export const WITHOUT_WEEKS: readonly CoverBucketName[] = ['minute', 'hour', 'day'];
export const WITH_WEEKS: readonly CoverBucketName[] = ['minute', 'hour', 'day', 'week'];

/**
 * The spans whose buckets cover exactly the same time as the `bucket` buckets a series over [from, to)
 * reads (those starting at or after `from`'s bucket and before `to`). Buckets are aligned to the epoch,
 * so every week bucket is 7 day buckets, every day bucket 24 hour buckets, every hour 60 minute buckets.
 */
export function coveringSpans(bucket: StatBucketName, from: number, to: number, levels: readonly CoverBucketName[] = WITHOUT_WEEKS): BucketSpan[] {
  const size = STAT_BUCKETS[bucket];
  const start = from - (from % size);
  const end = to % size === 0 ? to : to - (to % size) + size;
  if (end <= start) return [];
  return cover(levels, levels.indexOf(bucket), start, end);
}

function cover(levels: readonly CoverBucketName[], level: number, start: number, end: number): BucketSpan[] {
  const bucket = levels[level]!;
  const coarser = levels[level + 1];
  if (coarser === undefined) return [{ bucket, from: start, to: end }];
  const size = sizeOf(coarser);
  const innerStart = start % size === 0 ? start : start - (start % size) + size;
  const innerEnd = end - (end % size);
  if (innerStart >= innerEnd) return [{ bucket, from: start, to: end }];
  const spans: BucketSpan[] = [];
  if (start < innerStart) spans.push({ bucket, from: start, to: innerStart });
  spans.push(...cover(levels, level + 1, innerStart, innerEnd));
  if (innerEnd < end) spans.push({ bucket, from: innerEnd, to: end });
  return spans;
}
