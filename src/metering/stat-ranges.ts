// Covers a range of buckets with as few aggregate rows as possible: whole days from day buckets, the hours
// at either end from hour buckets, the minutes at either end from minute buckets. Sums over the range (the
// by-key breakdown) then read about a day's worth of rows per day instead of 24 or 1,440 per day.
import { STAT_BUCKETS } from './metering-writer.ts';

export type StatBucketName = keyof typeof STAT_BUCKETS;

/** Bucket starts `from` (inclusive) to `to` (exclusive) of one bucket size. */
export interface BucketSpan {
  bucket: StatBucketName;
  from: number;
  to: number;
}

const ORDER: readonly StatBucketName[] = ['minute', 'hour', 'day'];

/**
 * The spans whose buckets cover exactly the same time as the `bucket` buckets a series over [from, to)
 * reads (those starting at or after `from`'s bucket and before `to`). Buckets are aligned to the epoch,
 * so every day bucket is 24 hour buckets and every hour bucket 60 minute buckets.
 */
export function coveringSpans(bucket: StatBucketName, from: number, to: number): BucketSpan[] {
  const size = STAT_BUCKETS[bucket];
  const start = from - (from % size);
  const end = to % size === 0 ? to : to - (to % size) + size;
  if (end <= start) return [];
  return cover(ORDER.indexOf(bucket), start, end);
}

function cover(level: number, start: number, end: number): BucketSpan[] {
  const bucket = ORDER[level]!;
  const coarser = ORDER[level + 1];
  if (coarser === undefined) return [{ bucket, from: start, to: end }];
  const size = STAT_BUCKETS[coarser];
  const innerStart = start % size === 0 ? start : start - (start % size) + size;
  const innerEnd = end - (end % size);
  if (innerStart >= innerEnd) return [{ bucket, from: start, to: end }];
  const spans: BucketSpan[] = [];
  if (start < innerStart) spans.push({ bucket, from: start, to: innerStart });
  spans.push(...cover(level + 1, innerStart, innerEnd));
  if (innerEnd < end) spans.push({ bucket, from: innerEnd, to: end });
  return spans;
}
