// Usage logs: written in batches behind the hot path, read by the dashboard, trimmed by retention.
import { CompiledQuery, sql } from '../kysely-parts.ts';
import { engineOf, type DatabaseEngine } from '../engine.ts';
import type { NewUsageLog, UsageLogRow } from '../schema.ts';
import { inTransaction, type Db } from './repository-helpers.ts';
import { USAGE_LOG_COLUMNS, USAGE_LOG_DEFAULTS } from '../usage-log-columns.ts';

const COLUMNS = USAGE_LOG_COLUMNS;
const DEFAULTS = USAGE_LOG_DEFAULTS;

// Statements of 128, 64, …, 1 rows: a batch of n rows takes at most log2 statements beyond its full ones,
// and there are only eight SQL texts per engine, so they stay prepared (node:sqlite statement cache, pg's
// server-side plan cache) and skip Kysely's query compiler, which costs more than the insert at this size.
const STATEMENT_SIZES = [128, 64, 32, 16, 8, 4, 2, 1] as const;
const insertSqlCache = new Map<string, string>();

function insertSql(engine: DatabaseEngine, rows: number): string {
  const cacheKey = `${engine}:${rows}`;
  let text = insertSqlCache.get(cacheKey);
  if (!text) {
    let parameter = 0;
    const tuple = () => `(${COLUMNS.map(() => (engine === 'postgres' ? `$${++parameter}` : '?')).join(',')})`;
    text = `insert into usage_logs (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, tuple).join(',')}`;
    insertSqlCache.set(cacheKey, text);
  }
  return text;
}

/** Inserts all rows in one transaction (all land or none do). Returns the number inserted. */
export async function insertUsageLogBatch(db: Db, rows: readonly NewUsageLog[]): Promise<number> {
  if (rows.length === 0) return 0;
  const engine = engineOf(db);
  await inTransaction(db, async (trx) => {
    let start = 0;
    while (start < rows.length) {
      const size = STATEMENT_SIZES.find((candidate) => candidate <= rows.length - start)!;
      const parameters: unknown[] = [];
      for (const row of rows.slice(start, start + size)) {
        for (const column of COLUMNS) parameters.push(row[column] ?? DEFAULTS[column] ?? null);
      }
      await trx.executeQuery(CompiledQuery.raw(insertSql(engine, size), parameters));
      start += size;
    }
  });
  return rows.length;
}

export interface UsageLogFilter {
  userId?: number;
  keyId?: number;
  /** Only these keys' calls (an organisation member's keys); empty: none. */
  keyIds?: readonly number[];
  model?: string;
  /** Inclusive lower bound on created_at (epoch ms). */
  since?: number;
  /** Exclusive upper bound on created_at (epoch ms). */
  until?: number;
  /** Only failed calls (status >= 400), or only successful ones. */
  failed?: boolean;
  /**
   * Calls the channel served or tried: its id on the row, or its name among the attempts a failed or
   * failed-over call records (a call that failed everywhere has no channel id of its own).
   */
  channel?: { id: number; name: string };
  /** The HTTP status the caller got. */
  status?: number;
  /** The gateway error code (GW_ERR_…) of a failed call. */
  errorCode?: string;
}

/** Where the next page starts: the last row of the previous page. */
export interface UsageLogCursor {
  createdAt: number;
  id: number;
}

interface UsageLogPage {
  rows: UsageLogRow[];
  /** Pass back as `after` for the next page; null on the last page. */
  next: UsageLogCursor | null;
}

const MAX_USAGE_LOG_PAGE = 1000;

/**
 * Newest first. Keyset pagination on (created_at, id) rather than OFFSET: deep pages of a large log stay
 * as cheap as the first, and rows arriving meanwhile do not shift the pages.
 */
export async function listUsageLogs(db: Db, filter: UsageLogFilter = {}, page: { limit?: number; after?: UsageLogCursor | null } = {}): Promise<UsageLogPage> {
  const limit = Math.max(1, Math.min(page.limit ?? 50, MAX_USAGE_LOG_PAGE));
  let query = db.selectFrom('usage_logs').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
  if (filter.keyIds !== undefined) query = query.where('key_id', 'in', filter.keyIds.length > 0 ? [...filter.keyIds] : [-1]);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  if (filter.since !== undefined) query = query.where('created_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('created_at', '<', filter.until);
  if (filter.failed !== undefined) query = query.where('status', filter.failed ? '>=' : '<', 400);
  const channel = filter.channel;
  if (channel !== undefined) {
    // The attempt as JSON.stringify wrote it, with LIKE's own characters escaped.
    const pattern = `%${JSON.stringify({ channel: channel.name }).slice(1, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('channel_id', '=', channel.id), sql<boolean>`${sql.ref('attempts_json')} like ${pattern} escape '\\'`]));
  }
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.errorCode !== undefined) query = query.where('error_code', '=', filter.errorCode);
  const after = page.after;
  if (after) {
    query = query.where((eb) => eb.or([
      eb('created_at', '<', after.createdAt),
      eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
    ]));
  }
  // One extra row tells whether another page exists without a COUNT.
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const last = rows[rows.length - 1];
  return { rows, next: more && last ? { createdAt: last.created_at, id: last.id } : null };
}

/**
 * Deletes rows created before `cutoff` (epoch ms) in chunks, so a large purge never holds SQLite's single
 * write lock (or long PostgreSQL row locks) for long and metering writes interleave. Returns rows deleted.
 */
export async function deleteUsageLogsOlderThan(db: Db, cutoff: number, chunkSize = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.deleteFrom('usage_logs')
      .where('id', 'in', (eb) => eb.selectFrom('usage_logs').select('id').where('created_at', '<', cutoff).limit(chunkSize))
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < chunkSize) return total;
  }
}

/**
 * Which of these request ids are already logged: a batch retried after a failure whose commit may in fact
 * have happened skips them. Bounded by the batch's created_at range, so the created_at index does the work.
 */
export async function findLoggedRequestIds(db: Db, requestIds: readonly string[], from: number, to: number): Promise<Set<string>> {
  if (requestIds.length === 0) return new Set();
  const rows = await db.selectFrom('usage_logs').select('request_id')
    .where('created_at', '>=', from).where('created_at', '<=', to).where('request_id', 'in', [...requestIds])
    .execute();
  return new Set(rows.map((row) => row.request_id));
}

/** One logged call, or undefined; with an owner, only that user's call. */
export async function findUsageLog(db: Db, id: number, ownerId: number | null): Promise<UsageLogRow | undefined> {
  let query = db.selectFrom('usage_logs').selectAll().where('id', '=', id);
  if (ownerId !== null) query = query.where('user_id', '=', ownerId);
  return query.executeTakeFirst();
}
