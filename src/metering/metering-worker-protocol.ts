// Messages between the gateway and its metering worker.
import type { EncodedMeteringBatch } from './metering-batch-encoding.ts';

/** A write carries its entries flat (metering-batch-encoding.ts): far cheaper to clone than objects. */
export type WorkerRequest =
  | { kind: 'write'; id: number; entries: EncodedMeteringBatch; retry: boolean }
  | { kind: 'close'; id: number };

/** A failed write says how many entries, from the start of the batch, were done before it failed. */
export type WorkerReply =
  | { id: number; ok: true; written: number; deadLettered: number }
  | { id: number; ok: false; error: string; done: number };
