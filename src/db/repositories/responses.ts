// Responses API ids and their owners (table `responses`), written in batches behind the hot path.
import { CompiledQuery } from '../kysely-parts.ts';
import { engineOf, type DatabaseEngine } from '../engine.ts';
import { inTransaction, type Db } from './repository-helpers.ts';

export interface ResponseOwnerRow {
  id: string;
  user_id: number;
  key_id: number | null;
  channel_id: number | null;
  model: string;
  created_at: number;
  expires_at: number | null;
}

/** The columns an ownership row sets; state_kept_by ('upstream'), response_json, input_json and deleted_at keep their defaults. */
const COLUMNS = ['id', 'user_id', 'key_id', 'channel_id', 'model', 'created_at', 'expires_at'] as const satisfies readonly (keyof ResponseOwnerRow)[];

// Fixed statement sizes, as for usage logs: a handful of SQL texts that stay prepared, and no pass through
// Kysely's query compiler, which costs more than the insert itself at this size.
const STATEMENT_SIZES = [128, 32, 8, 1] as const;
const sqlCache = new Map<string, string>();

function insertSql(engine: DatabaseEngine, rows: number): string {
  const cacheKey = `${engine}:${rows}`;
  let text = sqlCache.get(cacheKey);
  if (!text) {
    let parameter = 0;
    const tuple = () => `(${COLUMNS.map(() => (engine === 'postgres' ? `$${++parameter}` : '?')).join(',')})`;
    // Ids are unique upstream; a repeat (a batch retried after a failure) keeps the first owner.
    text = `insert into responses (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, tuple).join(',')} on conflict (id) do nothing`;
    sqlCache.set(cacheKey, text);
  }
  return text;
}

export async function insertResponseOwnerBatch(db: Db, rows: readonly ResponseOwnerRow[]): Promise<void> {
  if (rows.length === 0) return;
  const engine = engineOf(db);
  await inTransaction(db, async (trx) => {
    let start = 0;
    while (start < rows.length) {
      const size = STATEMENT_SIZES.find((candidate) => candidate <= rows.length - start)!;
      const parameters: unknown[] = [];
      for (const row of rows.slice(start, start + size)) {
        for (const column of COLUMNS) parameters.push(row[column]);
      }
      await trx.executeQuery(CompiledQuery.raw(insertSql(engine, size), parameters));
      start += size;
    }
  });
}
