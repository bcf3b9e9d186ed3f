// The usage recorder's backlog: metering entries encoded as they are queued, straight into the flat array
// that crosses to the metering worker (metering-batch-encoding.ts), with the reservation each one settled
// beside it. A queued entry waits up to a flush interval (250 ms), through many scavenges at thousands of
// calls a second: as an object of 32 columns it was the largest thing each call left for the young
// generation to copy and promote (issue 16). In the flat array its numbers and shared strings are slots of
// one array, which the next flush posts as it is.
import type { DurableCharge, Reservation } from './accounting.ts';
import { appendMeteringEntry, ENCODED_ENTRY_WIDTH, encodedChargeAt, encodedKeyIdAt, encodedUserIdAt, type EncodedMeteringBatch } from './metering-batch-encoding.ts';
import type { MeteringEntry } from './metering-writer.ts';
import type { RowStore } from './write-behind-queue.ts';

export interface QueuedMeteringEntry {
  entry: MeteringEntry;
  /** The reservation the entry's charge settled, or null (a call admitted without one). */
  reservation: Reservation | null;
}

export class MeteringEntryBatch {
  /** Per entry its charge then its usage-log columns: what the writer posts. */
  readonly flat: EncodedMeteringBatch;
  /** One per entry, in the same order. */
  readonly reservations: (Reservation | null)[];

  constructor(flat: EncodedMeteringBatch = [], reservations: (Reservation | null)[] = []) {
    this.flat = flat;
    this.reservations = reservations;
  }

  get count(): number {
    return this.reservations.length;
  }

  /** What accounting must know of each entry once the batch is written. */
  durableCharges(): DurableCharge[] {
    const charges: DurableCharge[] = [];
    for (let i = 0; i < this.count; i++) {
      charges.push({ userId: encodedUserIdAt(this.flat, i), keyId: encodedKeyIdAt(this.flat, i), chargeMicros: encodedChargeAt(this.flat, i), reservation: this.reservations[i]! });
    }
    return charges;
  }

  /** The sum of the entries' charges (for the log of a failed write). */
  chargeMicros(): number {
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += encodedChargeAt(this.flat, i);
    return sum;
  }
}

export const meteringEntryStore: RowStore<QueuedMeteringEntry, MeteringEntryBatch> = {
  empty: () => new MeteringEntryBatch(),
  add(batch, row) {
    appendMeteringEntry(batch.flat, row.entry);
    batch.reservations.push(row.reservation);
  },
  count: (batch) => batch.count,
  slice: (batch, from, to = batch.count) => new MeteringEntryBatch(batch.flat.slice(from * ENCODED_ENTRY_WIDTH, to * ENCODED_ENTRY_WIDTH), batch.reservations.slice(from, to)),
  concat: (first, second) => new MeteringEntryBatch(first.flat.concat(second.flat), first.reservations.concat(second.reservations)),
};
