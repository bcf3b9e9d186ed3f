// Covers a range of buckets with as few aggregate rows as possible: whole weeks from week buckets, whole
// days from day buckets, whole quarter days from six-hour buckets (those two: the per-key roll-up only),
// the hours at either end from hour buckets, the minutes at either end from minute buckets. Sums over the
// range (the by-key and by-model breakdowns) then read a few rows per key and week, not 7, 168 or 10,080.
import { STAT_BUCKETS } from './metering-rows.ts';

type StatBucketName = keyof typeof STAT_BUCKETS;

/**
 * Six-hour and week buckets exist in usage_stats_keys only (migration 0011): the by-key breakdown sums a
 * thousand keys, so it is the read that gains from them; series never use them. Aligned to the epoch
 * (weeks start on a Thursday), like every other bucket, so a week is exactly 7 day buckets and six hours
 * exactly 6 hour buckets; nobody sees where they start.
 */
export const SIX_HOURS_MS = 6 * 3_600_000;
export const WEEK_MS = 7 * 86_400_000;

type CoverBucketName = StatBucketName | 'six_hours' | 'week';

/** Bucket starts `from` (inclusive) to `to` (exclusive) of one bucket size. */
interface BucketSpan {
  bucket: CoverBucketName;
  from: number;
  to: number;
}

// Read at call time, not at load: metering-writer.ts imports this module through usage-stats-rollups.ts.
const sizeOf = (bucket: CoverBucketName) => (bucket === 'week' ? WEEK_MS : bucket === 'six_hours' ? SIX_HOURS_MS : STAT_BUCKETS[bucket]);
/** The buckets of usage_stats and usage_stats_platform, and those of usage_stats_keys, finest first. */
export const STAT_LEVELS: readonly CoverBucketName[] = ['minute', 'hour', 'day'];
export const KEY_ROLLUP_LEVELS: readonly CoverBucketName[] = ['minute', 'hour', 'six_hours', 'day', 'week'];

/**
 * The spans whose buckets cover exactly the same time as the `bucket` buckets a series over [from, to)
 * reads (those starting at or after `from`'s bucket and before `to`). Buckets are aligned to the epoch,
 * so every coarser bucket is a whole number of the next finer ones (week 7 days, day 4 × 6 hours, ...).
 */
export function coveringSpans(bucket: StatBucketName, from: number, to: number, levels: readonly CoverBucketName[] = STAT_LEVELS): BucketSpan[] {
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
