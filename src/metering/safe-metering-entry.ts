// Makes a metering entry storable on both engines before it is written (src/db/safe-text.ts says why):
// every text column cleaned and cut to a bound, JSON columns kept parseable, integer columns whole and in
// range. Generic over the row's columns, so columns added later are covered too.
import type { NewUsageLog } from '../db/schema.ts';
import { safeInteger, safeJsonText, safeText, UNSAFE } from '../db/safe-text.ts';
import type { MeteringEntry } from './metering-writer.ts';

/** Longest stored text per column; an error is an upstream's message, which may echo a whole request. */
const TEXT_LIMITS: Record<string, number> = { error: 2_000 };
const DEFAULT_TEXT_LIMIT = 512;
const JSON_LIMIT = 8_000;
/** PostgreSQL `integer` columns (32-bit); the other integer columns are `bigint`. */
const INT32_COLUMNS = new Set(['stream', 'status', 'latency_ms', 'ttft_ms']);
const BIGINT_COLUMNS = new Set(['created_at', 'user_id', 'key_id', 'channel_id', 'input_tokens', 'cached_tokens', 'output_tokens', 'reasoning_tokens', 'cost_micros', 'overhead_us']);

/** The column's value made storable, or the value itself when it already is. */
function safeValue(column: string, value: unknown): unknown {
  if (typeof value === 'string') {
    if (column.endsWith('_json')) return value.length > JSON_LIMIT || UNSAFE.test(value) ? safeJsonText(value, JSON_LIMIT) : value;
    const limit = TEXT_LIMITS[column] ?? DEFAULT_TEXT_LIMIT;
    return value.length > limit || UNSAFE.test(value) ? safeText(value, limit) : value;
  }
  if (typeof value === 'number') {
    const int32 = INT32_COLUMNS.has(column);
    // Known integer columns are made whole; a column added later only loses NaN and Infinity.
    if (int32 || BIGINT_COLUMNS.has(column)) return Number.isSafeInteger(value) && (!int32 || Math.abs(value) <= 2_147_483_647) ? value : safeInteger(value, int32);
    return Number.isFinite(value) ? value : 0;
  }
  return value;
}

/** Only the length bounds: what the queue must hold to keep its memory bounded. */
function boundedValue(column: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (column.endsWith('_json')) return value.length > JSON_LIMIT ? safeJsonText(value, JSON_LIMIT) : value;
  const limit = TEXT_LIMITS[column] ?? DEFAULT_TEXT_LIMIT;
  return value.length > limit ? safeText(value, limit) : value;
}

function mapColumns(log: NewUsageLog, fix: (column: string, value: unknown) => unknown): NewUsageLog {
  // Nearly every row needs nothing: check first, copy only when something must change.
  let copy: Record<string, unknown> | null = null;
  for (const column in log) {
    const value = log[column as keyof NewUsageLog];
    const safe = fix(column, value);
    if (safe !== value && !(Number.isNaN(safe) && Number.isNaN(value))) {
      copy ??= { ...log };
      copy[column] = safe;
    }
  }
  return (copy ?? log) as NewUsageLog;
}

function safeUsageLog(log: NewUsageLog): NewUsageLog {
  return mapColumns(log, safeValue);
}

/**
 * For the queue, on the gateway's thread for every call: texts cut to their bounds, so a huge upstream
 * error cannot grow the backlog's memory. The rest (NUL, surrogates, numbers) is done by the writer, in its
 * worker thread, with safeMeteringEntry.
 */
export function boundedMeteringEntry(entry: MeteringEntry): MeteringEntry {
  const log = mapColumns(entry.log, boundedValue);
  return log === entry.log ? entry : { log, chargeMicros: entry.chargeMicros };
}

export function safeMeteringEntry(entry: MeteringEntry): MeteringEntry {
  const log = safeUsageLog(entry.log);
  const chargeMicros = Number.isSafeInteger(entry.chargeMicros) && entry.chargeMicros >= 0 ? entry.chargeMicros : Math.max(0, safeInteger(entry.chargeMicros));
  return log === entry.log && chargeMicros === entry.chargeMicros ? entry : { log, chargeMicros };
}
