// Writes a metering batch so that no row can jam the ones behind it. A batch the database refuses is split
// in halves, recursively, until the refused entries are alone; each of those goes to the dead-letter table
// with the database's error, and everything else is written. An outage (isRowRefusal false) stops the work
// and says how far it got, so the caller keeps and retries exactly the entries not yet done: nothing is
// written twice, nothing is dead-lettered for an outage.
//
// The dead-lettered entry's charge: it is applied on its own (ledger row, balance, key spend), in the same
// transaction as the dead-letter row (charge_applied 1), because a charge must not vanish with the usage
// row. When the charge itself is refused (its user was deleted meanwhile), the dead-letter row keeps the
// amount with charge_applied 0, to be replayed by an operator (docs/failure-modes.md, "Metering writes").
// Written against a MeteringStore (Kysely, or the SQLite worker's prepared statements): this file must not
// load Kysely at run time, or the SQLite metering worker would carry its modules again.
import { safeText } from '../db/safe-text.ts';
import type { MeteringDeadLetter, MeteringStore } from './metering-store.ts';
import type { MeteringEntry } from './metering-writer.ts';
import { safeMeteringEntry } from './safe-metering-entry.ts';
import { isRowRefusal } from './write-error-kind.ts';

export interface BatchOutcome {
  written: number;
  deadLettered: number;
}

/** The database went away mid-batch: the first `done` entries are written or dead-lettered, the rest are not. */
export class MeteringWriteInterrupted extends Error {
  readonly done: number;
  constructor(done: number, cause: unknown) {
    super(describe(cause), { cause });
    this.done = done;
    this.name = 'MeteringWriteInterrupted';
  }
}

/**
 * `retry`: these entries were in a write that failed, which may have committed anyway (the connection or
 * the worker lost between COMMIT and its answer); entries already logged are skipped, not written and
 * charged twice. Request ids are the gateway's own, one per call.
 */
export async function writeIsolatingRefusals(store: MeteringStore, batch: readonly MeteringEntry[], options: { retry?: boolean } = {}): Promise<BatchOutcome> {
  const all = batch.map(safeMeteringEntry);
  const outcome: BatchOutcome = { written: 0, deadLettered: 0 };
  if (all.length === 0) return outcome;
  let entries = all;
  if (options.retry) {
    const logged = await alreadyLogged(store, all);
    entries = all.filter((entry) => !logged.has(entry.log.request_id));
    outcome.written += all.length - entries.length;
  }
  // Halves are done left to right, so what is done is always a prefix of `entries`; `doneInBatch` turns
  // it into a prefix of the batch (skipped entries are done too).
  const doneInBatch = () => {
    const next = entries[processed];
    return next === undefined ? all.length : all.indexOf(next);
  };
  let processed = 0;
  const attempt = async (slice: MeteringEntry[]): Promise<void> => {
    try {
      await store.writeBatch(slice);
      outcome.written += slice.length;
      processed += slice.length;
      return;
    } catch (error) {
      if (!isRowRefusal(error)) throw new MeteringWriteInterrupted(doneInBatch(), error);
      if (slice.length === 1) {
        await deadLetter(store, slice[0]!, error, doneInBatch());
        outcome.deadLettered++;
        processed++;
        return;
      }
    }
    const middle = Math.ceil(slice.length / 2);
    await attempt(slice.slice(0, middle));
    await attempt(slice.slice(middle));
  };
  try {
    if (entries.length > 0) await attempt(entries);
  } catch (error) {
    throw error instanceof MeteringWriteInterrupted ? error : new MeteringWriteInterrupted(doneInBatch(), error);
  }
  return outcome;
}

async function alreadyLogged(store: MeteringStore, entries: MeteringEntry[]): Promise<Set<string>> {
  try {
    const times = entries.map((entry) => entry.log.created_at);
    return await store.findLogged(entries.map((entry) => entry.log.request_id), Math.min(...times), Math.max(...times));
  } catch (error) {
    throw new MeteringWriteInterrupted(0, error);
  }
}

async function deadLetter(store: MeteringStore, entry: MeteringEntry, refusal: unknown, done: number): Promise<void> {
  const row: MeteringDeadLetter = {
    created_at: Date.now(),
    request_id: entry.log.request_id,
    user_id: entry.log.user_id ?? null,
    key_id: entry.log.key_id ?? null,
    charge_micros: entry.chargeMicros,
    error: safeText(describe(refusal), 2_000),
    // JSON escapes NUL and lone surrogates, so this text is storable whatever the entry holds.
    entry_json: JSON.stringify(entry),
    charge_applied: 1,
  };
  try {
    await store.deadLetterWithCharge(entry, row);
    return;
  } catch (error) {
    if (!isRowRefusal(error)) throw new MeteringWriteInterrupted(done, error);
    try {
      await store.insertDeadLetter({ ...row, charge_applied: 0, error: safeText(`${row.error} | the charge was refused too: ${describe(error)}`, 4_000) });
    } catch (stored) {
      // Not even the dead-letter row could be written: keep the entry queued rather than lose it.
      throw new MeteringWriteInterrupted(done, stored);
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
