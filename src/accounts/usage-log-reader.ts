// Usage logs as the dashboard reads them: a user's own calls (an admin's view: anyone's, with channels),
// filtered, newest first, with an opaque keyset cursor that stays stable while rows are added; one call's
// detail; and a CSV export produced page by page (memory stays bounded whatever the range).
import type { Db } from '../db/repositories/repository-helpers.ts';
import { listUsageLogs, type UsageLogCursor, type UsageLogFilter } from '../db/repositories/usage-logs.ts';
import type { UsageLogRow } from '../db/schema.ts';
import { apiNotFound, invalidRequest } from '../gateway-errors.ts';
import { findModelById } from '../db/repositories/models.ts';
import { explainCharge } from '../metering/charge-explanation.ts';
import type { ModelPricing } from '../metering/pricing.ts';

interface LogQuery {
  from?: number | undefined;
  to?: number | undefined;
  key_id?: number | undefined;
  model?: string | undefined;
  outcome?: 'success' | 'error' | undefined;
  user_id?: number | undefined;
}

function encodeCursor(cursor: UsageLogCursor): string {
  return Buffer.from(`${cursor.createdAt}.${cursor.id}`).toString('base64url');
}

function decodeCursor(text: string): UsageLogCursor {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw invalidRequest("Invalid value for 'cursor': pass back the next_cursor of the previous page.", 'cursor', 'invalid_value');
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}

/** `ownerId` null: the admin's view over everyone (optionally one user). */
function toFilter(query: LogQuery, ownerId: number | null): UsageLogFilter {
  const filter: UsageLogFilter = {};
  if (ownerId !== null) filter.userId = ownerId;
  else if (query.user_id !== undefined) filter.userId = query.user_id;
  if (query.key_id !== undefined) filter.keyId = query.key_id;
  if (query.model !== undefined) filter.model = query.model;
  if (query.from !== undefined) filter.since = query.from;
  if (query.to !== undefined) filter.until = query.to;
  if (query.outcome !== undefined) filter.failed = query.outcome === 'error';
  return filter;
}

function logView(row: UsageLogRow, admin: boolean, channelNames?: ReadonlyMap<number, string>) {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    request_id: row.request_id,
    key_id: row.key_id,
    key_name: row.key_name,
    model: row.model,
    endpoint: row.endpoint,
    stream: row.stream === 1,
    status: row.status,
    outcome: row.status < 400 ? 'success' : 'error',
    latency_ms: row.latency_ms,
    ttft_ms: row.ttft_ms,
    input_tokens: row.input_tokens,
    cached_tokens: row.cached_tokens,
    cache_write_tokens: row.cache_write_tokens,
    cache_write_1h_tokens: row.cache_write_1h_tokens,
    output_tokens: row.output_tokens,
    reasoning_tokens: row.reasoning_tokens,
    cost_usd: row.cost_micros / 1_000_000,
    error: row.error,
    ...(admin ? { user_id: row.user_id, channel_id: row.channel_id, channel: row.channel_id === null ? null : channelNames?.get(row.channel_id) ?? null, upstream_model: row.upstream_model } : {}),
  };
}

async function channelNames(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('channels').select(['id', 'name']).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function readLogPage(db: Db, query: LogQuery, ownerId: number | null, limit: number, cursor: string | undefined) {
  const page = await listUsageLogs(db, toFilter(query, ownerId), { limit, after: cursor ? decodeCursor(cursor) : null });
  const names = ownerId === null ? await channelNames(db) : undefined;
  return { data: page.rows.map((row) => logView(row, ownerId === null, names)), next_cursor: page.next ? encodeCursor(page.next) : null };
}

/** One call with its attempts; for a user, attempts carry no channel names. */
export async function readLogDetail(db: Db, id: number, ownerId: number | null) {
  let query = db.selectFrom('usage_logs').selectAll().where('id', '=', id);
  if (ownerId !== null) query = query.where('user_id', '=', ownerId);
  const row = await query.executeTakeFirst();
  if (!row) throw apiNotFound('Log entry');
  const admin = ownerId === null;
  type Attempt = { model: string; channel: string | null; status: number | null; outcome: string; error: string | null; ms: number };
  // The relay records attempts only when there was more than one; a single attempt is the call itself.
  const attempts: Attempt[] = row.attempts_json ? JSON.parse(row.attempts_json) as Attempt[]
    : [{ model: row.upstream_model ?? row.model, channel: row.channel_id === null ? null : (await channelNames(db)).get(row.channel_id) ?? null, status: row.status, outcome: row.status < 400 ? 'success' : 'error', error: row.error, ms: row.latency_ms }];
  const model = await findModelById(db, row.model);
  return {
    ...logView(row, admin, admin ? await channelNames(db) : undefined),
    // How the charge was computed, from the row and the model's price in force (src/metering/charge-explanation.ts).
    calculation: explainCharge(row, model ? JSON.parse(model.pricing_json) as ModelPricing : undefined, model?.free === 1),
    attempts: attempts.map((attempt, index) => ({ attempt: index + 1, model: attempt.model, status: attempt.status, outcome: attempt.outcome, error: attempt.error, latency_ms: attempt.ms, ...(admin ? { channel: attempt.channel } : {}) })),
  };
}

const CSV_COLUMNS = ['id', 'created_at', 'request_id', 'key_name', 'model', 'endpoint', 'stream', 'status', 'outcome', 'latency_ms', 'ttft_ms', 'input_tokens', 'cached_tokens', 'output_tokens', 'reasoning_tokens', 'cost_usd', 'error'] as const;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV, header first, then rows a page at a time (1000 rows in memory at most). */
export async function* logsCsv(db: Db, query: LogQuery, ownerId: number | null): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\n`;
  const filter = toFilter(query, ownerId);
  let after: UsageLogCursor | null = null;
  do {
    const page = await listUsageLogs(db, filter, { limit: 1000, after });
    let chunk = '';
    for (const row of page.rows) {
      const view = logView(row, false) as Record<string, unknown>;
      chunk += `${CSV_COLUMNS.map((column) => csvCell(view[column])).join(',')}\n`;
    }
    if (chunk) yield chunk;
    after = page.next;
  } while (after);
}
