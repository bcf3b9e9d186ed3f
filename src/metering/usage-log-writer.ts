// Writes batches of usage-log rows as one multi-row INSERT. Built by hand rather than through Kysely's
// query builder: compiling a 500-row insert through the builder cost more than the insert itself.
import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../db/database.ts';
import type { DatabaseSchema, NewUsageLog } from '../db/schema.ts';

const COLUMNS = [
  'created_at', 'request_id', 'user_id', 'key_id', 'key_name', 'model', 'upstream_model', 'channel_id',
  'inbound_format', 'endpoint', 'stream', 'status', 'latency_ms', 'ttft_ms', 'input_tokens', 'cached_tokens',
  'output_tokens', 'reasoning_tokens', 'cost_micros', 'error', 'attempts_json',
] as const satisfies readonly (keyof NewUsageLog)[];

/** Both engines accept at least 32,766 parameters per statement; stay well below. */
const ROWS_PER_STATEMENT = Math.floor(30_000 / COLUMNS.length);

export async function insertUsageLogs(db: Kysely<DatabaseSchema>, engine: DatabaseEngine, rows: NewUsageLog[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const slice = rows.slice(start, start + ROWS_PER_STATEMENT);
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const row of slice) {
      const placeholders: string[] = [];
      for (const column of COLUMNS) {
        parameters.push(row[column] ?? null);
        placeholders.push(engine === 'postgres' ? `$${parameters.length}` : '?');
      }
      tuples.push(`(${placeholders.join(',')})`);
    }
    const text = `insert into usage_logs (${COLUMNS.join(',')}) values ${tuples.join(',')}`;
    await db.executeQuery(CompiledQuery.raw(text, parameters));
  }
}
