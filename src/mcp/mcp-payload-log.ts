// Arguments and results of the calls to servers that keep them (log_payloads), written behind the calls in
// batches, never on the call's path. Bounded: beyond MAX_PENDING unwritten payloads new ones are dropped
// and counted (the call's own log row and charge go through the metering queue, which never drops them).
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { Logger } from 'pino';
import { insertMcpCallPayloads } from '../db/repositories/mcp-servers.ts';

const MAX_PENDING = 2_000;

export interface McpPayloadRow {
  request_id: string;
  created_at: number;
  arguments_json: string | null;
  result_json: string | null;
}

export interface McpPayloadLog {
  add(row: McpPayloadRow): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  readonly dropped: number;
}

export function createMcpPayloadLog(db: Db, logger: Logger, flushIntervalMs: number): McpPayloadLog {
  let pending: McpPayloadRow[] = [];
  let dropped = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      try {
        await insertMcpCallPayloads(db, batch);
      } catch (error) {
        logger.error({ err: error, rows: batch.length }, 'MCP call payloads could not be written; they are dropped (the calls themselves are logged)');
      }
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), flushIntervalMs);
  timer.unref();
  return {
    add(row) {
      if (pending.length >= MAX_PENDING) {
        dropped++;
        return;
      }
      pending.push(row);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
    get dropped() {
      return dropped;
    },
  };
}
