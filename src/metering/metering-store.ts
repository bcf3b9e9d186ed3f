// What writing a metering batch needs from a database, so the refusal isolation (isolate-refused-rows.ts)
// runs the same over two implementations: Kysely (PostgreSQL, and SQLite on the gateway's own connection)
// and node:sqlite prepared statements (the SQLite metering worker, which then does not load Kysely's
// modules: ~23 MB less resident memory).
import type { MeteringEntry } from './metering-writer.ts';

export interface MeteringDeadLetter {
  created_at: number;
  request_id: string;
  user_id: number | null;
  key_id: number | null;
  charge_micros: number;
  error: string;
  entry_json: string;
  charge_applied: number;
}

export interface MeteringStore {
  /** Usage logs, charges and statistics of `entries`, in one transaction. */
  writeBatch(entries: MeteringEntry[]): Promise<void>;
  /** The entry's charge and its dead-letter row (charge_applied 1), in one transaction. */
  deadLetterWithCharge(entry: MeteringEntry, row: MeteringDeadLetter): Promise<void>;
  insertDeadLetter(row: MeteringDeadLetter): Promise<void>;
  /** Which of `requestIds` (created between `from` and `to`, inclusive) are already logged. */
  findLogged(requestIds: readonly string[], from: number, to: number): Promise<Set<string>>;
}
