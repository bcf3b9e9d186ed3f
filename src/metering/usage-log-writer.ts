// Writes batches of usage-log rows as multi-row INSERTs of a fixed size, built by hand rather than through
// Kysely's query builder (compiling a 500-row insert through the builder cost more than the insert). The
// fixed size keeps the SQL text the same from batch to batch, so the prepared statement is reused.
import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../db/database.ts';
import type { DatabaseSchema, NewUsageLog } from '../db/schema.ts';

const COLUMNS = [
  'created_at', 'request_id', 'user_id', 'key_id', 'key_name', 'model', 'upstream_model', 'channel_id',
  'inbound_format', 'endpoint', 'stream', 'status', 'latency_ms', 'ttft_ms', 'input_tokens', 'cached_tokens',
  'output_tokens', 'reasoning_tokens', 'cost_micros', 'error', 'attempts_json',
] as const satisfies readonly (keyof NewUsageLog)[];

const ROWS_PER_STATEMENT = 32;
const sqlByEngineAndRows = new Map<string, string>();

function insertSql(engine: DatabaseEngine, rows: number): string {
  const cacheKey = `${engine}:${rows}`;
  let text = sqlByEngineAndRows.get(cacheKey);
  if (!text) {
    let parameter = 0;
    const tuple = () => `(${COLUMNS.map(() => (engine === 'postgres' ? `$${++parameter}` : '?')).join(',')})`;
    text = `insert into usage_logs (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, tuple).join(',')}`;
    sqlByEngineAndRows.set(cacheKey, text);
  }
  return text;
}

export async function insertUsageLogs(db: Kysely<DatabaseSchema>, engine: DatabaseEngine, rows: NewUsageLog[]): Promise<void> {
  let start = 0;
  while (start < rows.length) {
    // Full statements of 32 rows, then single rows: two SQL texts in all, both stay prepared.
    const size = rows.length - start >= ROWS_PER_STATEMENT ? ROWS_PER_STATEMENT : 1;
    const parameters: unknown[] = [];
    for (const row of rows.slice(start, start + size)) {
      for (const column of COLUMNS) parameters.push(row[column] ?? null);
    }
    await db.executeQuery(CompiledQuery.raw(insertSql(engine, size), parameters));
    start += size;
  }
}
