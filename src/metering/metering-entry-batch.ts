// The usage recorder's backlog: the metering entries waiting for the next flush (250 ms by default), with
// the reservation each one settled. A queued entry lives through several scavenges at thousands of calls a
// second, so whatever holds it on the JavaScript heap is copied and promoted to the old generation: a
// 32-column object per entry was the largest thing each call left behind (issue 16), and a flat array of
// the columns was no better (its backing store is copied again every time it grows). So the numeric columns
// and the charge go into Float64Arrays, whose memory is outside the heap and never copied by the collector;
// only the text columns (mostly strings shared by every call: model, endpoint, format) stay in an array.
// At the flush the entries become the flat array the metering worker takes (metering-batch-encoding.ts),
// which lives only until it is posted.
import type { DurableCharge, Reservation } from './accounting.ts';
import { USAGE_LOG_COLUMNS } from '../db/usage-log-columns.ts';
import { ENCODED_ENTRY_WIDTH, type EncodedMeteringBatch } from './metering-batch-encoding.ts';
import type { MeteringEntry } from './metering-writer.ts';
import type { RowStore } from './write-behind-queue.ts';

export interface QueuedMeteringEntry {
  entry: MeteringEntry;
  /** The reservation the entry's charge settled, or null (a call admitted without one). */
  reservation: Reservation | null;
}

type Column = (typeof USAGE_LOG_COLUMNS)[number];

/** Columns that hold text (or null): kept as values. Every other column is a number (or null). */
const TEXT_COLUMNS: ReadonlySet<Column> = new Set<Column>(['request_id', 'key_name', 'model', 'upstream_model', 'inbound_format', 'endpoint', 'error', 'attempts_json', 'image_size', 'image_quality', 'error_code']);
const NUMBER_COLUMNS = USAGE_LOG_COLUMNS.filter((column) => !TEXT_COLUMNS.has(column));
const TEXT_COLUMN_LIST = USAGE_LOG_COLUMNS.filter((column) => TEXT_COLUMNS.has(column));
const IS_TEXT = USAGE_LOG_COLUMNS.map((column) => TEXT_COLUMNS.has(column));
/** Numbers per entry: the charge, then the numeric columns. One null bit each must fit a 32-bit mask. */
const NUMBERS = 1 + NUMBER_COLUMNS.length;
/** Values per entry: the text columns, then the entry itself when it holds a value the arrays cannot (else undefined). */
const VALUES = TEXT_COLUMN_LIST.length + 1;
if (NUMBERS > 31) throw new Error('metering-entry-batch: more numeric columns than null bits');
/** Set in a null mask when the entry holds a value the typed arrays cannot (it is then kept whole). */
const ODD = 1 << 31;

/**
 * Copies an entry's numeric columns into `numbers` from `at + 1` and returns its null mask (ODD set for a
 * value that is neither a number nor null); then its text columns into `values` from `at`. Generated from the
 * column lists (constant identifiers, never input), like the worker's decoder: a loop reading `log[column]`
 * is a megamorphic keyed load per column, ~4-5 k instructions a call under callgrind.
 */
const storeNumbers = new Function('log', 'numbers', 'at', `let nulls = 0; let value;
${NUMBER_COLUMNS.map((column, i) => `value = log.${column}; if (typeof value === 'number') numbers[at + ${i + 1}] = value; else if (value === null) nulls |= ${1 << (i + 1)}; else nulls |= ${ODD};`).join('\n')}
return nulls;`) as (log: MeteringEntry['log'], numbers: Float64Array, at: number) => number;
const storeTexts = new Function('log', 'values', 'at', TEXT_COLUMN_LIST.map((column, i) => `values[at + ${i}] = log.${column};`).join('\n')) as
  (log: MeteringEntry['log'], values: unknown[], at: number) => void;
const USER_ID = 1 + NUMBER_COLUMNS.indexOf('user_id');
const KEY_ID = 1 + NUMBER_COLUMNS.indexOf('key_id');
/** Room for this many entries at first; a batch that needed more makes the next ones that large (up to MAX). */
const INITIAL_ENTRIES = 256;
const MAX_PREPARED_ENTRIES = 1_000;
let preparedEntries = INITIAL_ENTRIES;

export class MeteringEntryBatch {
  private size = 0;
  private numbers: Float64Array;
  /** Per entry, bit i set: number i was null. */
  private nulls: Uint32Array;
  /**
   * Made at their full size, not grown by push: a growing array's backing store is copied to a new one in
   * the young generation each time it grows, and promoted again at the next scavenge.
   */
  private values: unknown[];
  private reservations: (Reservation | null)[];

  constructor(capacity = INITIAL_ENTRIES) {
    this.numbers = new Float64Array(capacity * NUMBERS);
    this.nulls = new Uint32Array(capacity);
    this.values = new Array<unknown>(capacity * VALUES);
    this.reservations = new Array<Reservation | null>(capacity);
  }

  get count(): number {
    return this.size;
  }

  add(entry: MeteringEntry, reservation: Reservation | null): void {
    const index = this.size;
    if (index === this.nulls.length) this.grow(index * 2);
    const at = index * NUMBERS;
    this.numbers[at] = entry.chargeMicros;
    const nulls = storeNumbers(entry.log, this.numbers, at);
    const odd = (nulls & ODD) !== 0 || typeof entry.chargeMicros !== 'number';
    this.nulls[index] = nulls & ~ODD;
    storeTexts(entry.log, this.values, index * VALUES);
    // A value the typed arrays cannot hold (undefined, a string in a number column): the entry is kept whole.
    this.values[index * VALUES + VALUES - 1] = odd ? entry : undefined;
    this.reservations[index] = reservation;
    this.size = index + 1;
  }

  private grow(capacity: number): void {
    preparedEntries = Math.min(MAX_PREPARED_ENTRIES, Math.max(preparedEntries, capacity));
    const numbers = new Float64Array(capacity * NUMBERS);
    numbers.set(this.numbers.subarray(0, this.size * NUMBERS));
    const nulls = new Uint32Array(capacity);
    nulls.set(this.nulls.subarray(0, this.size));
    const values = new Array<unknown>(capacity * VALUES);
    for (let i = 0; i < this.size * VALUES; i++) values[i] = this.values[i];
    const reservations = new Array<Reservation | null>(capacity);
    for (let i = 0; i < this.size; i++) reservations[i] = this.reservations[i]!;
    this.numbers = numbers;
    this.nulls = nulls;
    this.values = values;
    this.reservations = reservations;
  }

  /** Entries `from` up to `to` as a new batch. */
  slice(from: number, to = this.size): MeteringEntryBatch {
    const part = new MeteringEntryBatch(Math.max(1, to - from));
    part.append(this, from, to);
    return part;
  }

  /** This batch's entries, then `next`'s. */
  concat(next: MeteringEntryBatch): MeteringEntryBatch {
    const both = new MeteringEntryBatch(Math.max(1, this.size + next.size));
    both.append(this, 0, this.size);
    both.append(next, 0, next.size);
    return both;
  }

  /** Appends entries `from` up to `to` of `source` (room for them is already made). */
  private append(source: MeteringEntryBatch, from: number, to: number): void {
    const at = this.size;
    this.numbers.set(source.numbers.subarray(from * NUMBERS, to * NUMBERS), at * NUMBERS);
    this.nulls.set(source.nulls.subarray(from, to), at);
    for (let i = 0; i < (to - from) * VALUES; i++) this.values[at * VALUES + i] = source.values[from * VALUES + i];
    for (let i = 0; i < to - from; i++) this.reservations[at + i] = source.reservations[from + i]!;
    this.size = at + to - from;
  }

  private numberAt(index: number, position: number): number | null {
    return (this.nulls[index]! & (1 << position)) !== 0 ? null : this.numbers[index * NUMBERS + position]!;
  }

  /** The entries as the metering worker takes them: per entry the charge, then the columns in USAGE_LOG_COLUMNS order. */
  encode(): EncodedMeteringBatch {
    // Made at its final length and filled (which leaves it packed: a holey array is posted element by
    // element with its index), rather than grown by push, which allocated three times its size.
    const flat: EncodedMeteringBatch = new Array<unknown>(this.size * ENCODED_ENTRY_WIDTH).fill(null);
    let at = 0;
    for (let index = 0; index < this.size; index++) {
      const whole = this.values[index * VALUES + VALUES - 1] as MeteringEntry | undefined;
      if (whole !== undefined) {
        flat[at++] = whole.chargeMicros;
        for (let c = 0; c < USAGE_LOG_COLUMNS.length; c++) flat[at++] = whole.log[USAGE_LOG_COLUMNS[c]!];
        continue;
      }
      flat[at++] = this.numberAt(index, 0);
      let number = 1;
      let text = index * VALUES;
      for (let c = 0; c < USAGE_LOG_COLUMNS.length; c++) flat[at++] = IS_TEXT[c] ? this.values[text++] : this.numberAt(index, number++);
    }
    return flat;
  }

  /** What accounting must know of each entry once the batch is written. */
  durableCharges(): DurableCharge[] {
    const charges: DurableCharge[] = [];
    for (let index = 0; index < this.size; index++) {
      const whole = this.values[index * VALUES + VALUES - 1] as MeteringEntry | undefined;
      charges.push(whole !== undefined
        ? { userId: whole.log.user_id ?? null, keyId: whole.log.key_id ?? null, chargeMicros: whole.chargeMicros, reservation: this.reservations[index]! }
        : { userId: this.numberAt(index, USER_ID), keyId: this.numberAt(index, KEY_ID), chargeMicros: this.numberAt(index, 0)!, reservation: this.reservations[index]! });
    }
    return charges;
  }

  /** The sum of the entries' charges (for the log of a failed write). */
  chargeMicros(): number {
    let sum = 0;
    for (const charge of this.durableCharges()) sum += charge.chargeMicros;
    return sum;
  }
}

export const meteringEntryStore: RowStore<QueuedMeteringEntry, MeteringEntryBatch> = {
  empty: () => new MeteringEntryBatch(preparedEntries),
  add: (batch, row) => batch.add(row.entry, row.reservation),
  count: (batch) => batch.count,
  slice: (batch, from, to) => batch.slice(from, to),
  concat: (first, second) => first.concat(second),
};
