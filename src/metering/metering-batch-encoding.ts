// How a batch of metering entries crosses to the metering worker: one flat array of column values, each
// entry its charge then its usage-log columns in USAGE_LOG_COLUMNS order (the one list both sides import).
// postMessage structured-clones what it is given; an array of objects makes it write every entry's 33
// property names and walk its object graph, a flat array of numbers, strings and nulls only the values.
// The worker decodes the batch back into entries (on its own thread, off the request loop).
// Only the columns a write stores cross (both stores insert USAGE_LOG_COLUMNS and nothing else).
import { USAGE_LOG_COLUMNS } from '../db/usage-log-columns.ts';
import type { NewUsageLog } from '../db/schema.ts';
import type { MeteringEntry } from './metering-writer.ts';

/** Values per entry in the flat array: the charge, then the usage-log columns. */
export const ENCODED_ENTRY_WIDTH = 1 + USAGE_LOG_COLUMNS.length;

export type EncodedMeteringBatch = unknown[];

/** Appends one entry to the flat array in one call (generated like readLog below, from the same list). */
const pushEntry = new Function('flat', 'entry', `flat.push(entry.chargeMicros, ${USAGE_LOG_COLUMNS.map((column) => `entry.log.${column}`).join(', ')});`) as
  (flat: EncodedMeteringBatch, entry: MeteringEntry) => void;

export function encodeMeteringBatch(entries: readonly MeteringEntry[]): EncodedMeteringBatch {
  // Filled by push, not preallocated: `new Array(n)` is a holey array, which V8's serializer writes
  // element by element with its index (measured slower to post than the objects themselves).
  const flat: EncodedMeteringBatch = [];
  for (const entry of entries) pushEntry(flat, entry);
  return flat;
}

/**
 * Builds one entry's log from the flat array at `at`, as an object literal of the columns: every log then
 * has the same hidden class, built in one step (a loop adding 32 keys one by one measured ~2x slower). The
 * source is generated from USAGE_LOG_COLUMNS, a constant list of identifiers, never from input.
 */
const readLog = new Function('flat', 'at', `return {${USAGE_LOG_COLUMNS.map((column, index) => `${column}: flat[at + ${index}]`).join(', ')}};`) as
  (flat: EncodedMeteringBatch, at: number) => NewUsageLog;

/**
 * The entries again. A column the entry left out arrives undefined, which both stores (`?? default`) and
 * the dead-letter JSON treat as absent; a batch whose length is not a whole number of entries is refused,
 * not half-written.
 */
export function decodeMeteringBatch(flat: EncodedMeteringBatch): MeteringEntry[] {
  if (!Array.isArray(flat) || flat.length % ENCODED_ENTRY_WIDTH !== 0) {
    throw new Error(`a metering batch must be a whole number of ${ENCODED_ENTRY_WIDTH}-value entries`);
  }
  const entries: MeteringEntry[] = [];
  for (let at = 0; at < flat.length; at += ENCODED_ENTRY_WIDTH) {
    // `log` first: a dead letter's entry_json (JSON of the entry) keeps the key order it had before the
    // flat batch, which test/metering/sqlite-metering-store.test.ts compares with the in-thread writer's.
    entries.push({ log: readLog(flat, at + 1), chargeMicros: flat[at] as number });
  }
  return entries;
}
