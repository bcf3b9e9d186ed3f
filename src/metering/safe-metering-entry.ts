// Makes a metering entry storable on both engines before it is written (src/db/safe-text.ts says why):
// every text column cleaned and cut to a bound, JSON columns kept parseable, integer columns whole and in
// range. Generic over the row's columns, so columns added later are covered too.
import type { NewUsageLog } from '../db/schema.ts';
import { safeInteger, safeJsonText, safeText } from '../db/safe-text.ts';
import type { MeteringEntry } from './metering-writer.ts';

/** Longest stored text per column; an error is an upstream's message, which may echo a whole request. */
const TEXT_LIMITS: Record<string, number> = { error: 2_000 };
const DEFAULT_TEXT_LIMIT = 512;
const JSON_LIMIT = 8_000;
/** PostgreSQL `integer` columns (32-bit); the other integer columns are `bigint`. */
const INT32_COLUMNS = new Set(['stream', 'status', 'latency_ms', 'ttft_ms']);
const BIGINT_COLUMNS = new Set(['created_at', 'user_id', 'key_id', 'channel_id', 'input_tokens', 'cached_tokens', 'output_tokens', 'reasoning_tokens', 'cost_micros']);

export function safeUsageLog(log: NewUsageLog): NewUsageLog {
  const safe: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(log)) {
    if (typeof value === 'string') {
      safe[column] = column.endsWith('_json') ? safeJsonText(value, JSON_LIMIT) : safeText(value, TEXT_LIMITS[column] ?? DEFAULT_TEXT_LIMIT);
    } else if (typeof value === 'number') {
      // Known integer columns are made whole; a column added later only loses NaN and Infinity.
      safe[column] = INT32_COLUMNS.has(column) || BIGINT_COLUMNS.has(column) ? safeInteger(value, INT32_COLUMNS.has(column)) : Number.isFinite(value) ? value : 0;
    } else {
      safe[column] = value;
    }
  }
  return safe as NewUsageLog;
}

export function safeMeteringEntry(entry: MeteringEntry): MeteringEntry {
  return { log: safeUsageLog(entry.log), chargeMicros: Math.max(0, safeInteger(entry.chargeMicros)) };
}
