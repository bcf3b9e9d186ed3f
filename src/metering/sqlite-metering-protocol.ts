// Messages between the gateway and its SQLite metering worker.
import type { MeteringEntry } from './metering-writer.ts';

export type WorkerRequest =
  | { kind: 'write'; id: number; entries: MeteringEntry[] }
  | { kind: 'close'; id: number };

export type WorkerReply = { id: number; ok: true } | { id: number; ok: false; error: string };
