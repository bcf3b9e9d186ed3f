// Usage logs as the dashboard reads them: a user's own calls (an admin's view: anyone's, with channels),
// filtered, newest first, with an opaque keyset cursor that stays stable while rows are added; one call's
// detail; and a CSV export produced page by page (memory stays bounded whatever the range).
import type { Db } from '../db/repositories/repository-helpers.ts';
import { findUsageLog, listUsageLogs, type UsageLogCursor, type UsageLogFilter } from '../db/repositories/usage-logs.ts';
import type { UsageLogRow } from '../db/schema.ts';
import { apiNotFound, invalidRequest } from '../gateway-errors.ts';
import { findModel } from '../db/repositories/models.ts';
import { channelNamesById } from '../db/repositories/channels.ts';
import { listUserLabels } from '../db/repositories/users.ts';
import { loggedAttemptsOf } from '../db/json-columns.ts';
import { explainCharge } from '../metering/charge-explanation.ts';

interface LogQuery {
  from?: number | undefined;
  to?: number | undefined;
  key_id?: number | undefined;
  /** Only these keys' calls: an organisation member's own (the route computes them; never a client's filter). */
  key_ids?: readonly number[] | undefined;
  model?: string | undefined;
  outcome?: 'success' | 'error' | undefined;
  user_id?: number | undefined;
  /** Administrators only: the channel, the exact status, the gateway error code. */
  channel_id?: number | undefined;
  status?: number | undefined;
  error_code?: string | undefined;
}

function encodeCursor(cursor: UsageLogCursor): string {
  return Buffer.from(`${cursor.createdAt}.${cursor.id}`).toString('base64url');
}

function decodeCursor(text: string): UsageLogCursor {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw invalidRequest("Invalid value for 'cursor': pass back the next_cursor of the previous page.", 'cursor', 'invalid_value');
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}

/** `ownerId` null: the admin's view over everyone (optionally one user); `channels` names them for channel_id. */
function toFilter(query: LogQuery, ownerId: number | null, channels?: ReadonlyMap<number, string>): UsageLogFilter {
  const filter: UsageLogFilter = {};
  if (ownerId !== null) filter.userId = ownerId;
  else {
    if (query.user_id !== undefined) filter.userId = query.user_id;
    // Which channel served a call is an administrator's knowledge: a user's filter never names one.
    if (query.channel_id !== undefined) filter.channel = { id: query.channel_id, name: channels?.get(query.channel_id) ?? '' };
  }
  if (query.status !== undefined) filter.status = query.status;
  if (query.error_code !== undefined) filter.errorCode = query.error_code;
  if (query.key_id !== undefined) filter.keyId = query.key_id;
  if (query.key_ids !== undefined) filter.keyIds = query.key_ids;
  if (query.model !== undefined) filter.model = query.model;
  if (query.from !== undefined) filter.since = query.from;
  if (query.to !== undefined) filter.until = query.to;
  if (query.outcome !== undefined) filter.failed = query.outcome === 'error';
  return filter;
}

interface UserLabel { name: string; email: string | null }

/** A call as its owner sees it. */
function logView(row: UsageLogRow) {
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
    outcome: row.status < 400 ? 'success' as const : 'error' as const,
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
    error_code: row.error_code,
  };
}

/** An administrator's view adds whose call it was and the channel. */
function adminLogView(row: UsageLogRow, channelNames?: ReadonlyMap<number, string>, users?: ReadonlyMap<number, UserLabel>) {
  return {
    ...logView(row),
    user_id: row.user_id,
    user_name: row.user_id === null ? null : users?.get(row.user_id)?.name ?? null,
    user_email: row.user_id === null ? null : users?.get(row.user_id)?.email ?? null,
    channel_id: row.channel_id,
    channel: channelOf(row, channelNames),
    upstream_model: row.upstream_model,
  };
}

type LogView = ReturnType<typeof logView>;
type AdminLogView = ReturnType<typeof adminLogView>;

/** The channel that served the call, or for a call that failed everywhere, the last one it tried. */
function channelOf(row: UsageLogRow, channelNames: ReadonlyMap<number, string> | undefined): string | null {
  if (row.channel_id !== null) return channelNames?.get(row.channel_id) ?? null;
  return loggedAttemptsOf(row.attempts_json)?.at(-1)?.channel ?? null;
}

async function channelNames(db: Db): Promise<Map<number, string>> {
  return channelNamesById(db);
}

/** Names and e-mails of the users these rows belong to (one indexed read for a page, not a join per row). */
async function userLabels(db: Db, rows: readonly UsageLogRow[]): Promise<Map<number, UserLabel>> {
  const ids = [...new Set(rows.map((row) => row.user_id).filter((id): id is number => id !== null))];
  const users = await listUserLabels(db, ids);
  return new Map(users.map((user) => [user.id, { name: user.name, email: user.email }]));
}

interface LogPage<Row> { data: Row[]; next_cursor: string | null }

/** `ownerId` null: the administrators' view of everyone's calls (with users and channels). */
export async function readLogPage(db: Db, query: LogQuery, ownerId: number, limit: number, cursor: string | undefined): Promise<LogPage<LogView>>;
export async function readLogPage(db: Db, query: LogQuery, ownerId: null, limit: number, cursor: string | undefined): Promise<LogPage<AdminLogView>>;
export async function readLogPage(db: Db, query: LogQuery, ownerId: number | null, limit: number, cursor: string | undefined): Promise<LogPage<LogView | AdminLogView>> {
  const admin = ownerId === null;
  const names = admin ? await channelNames(db) : undefined;
  const page = await listUsageLogs(db, toFilter(query, ownerId, names), { limit, after: cursor ? decodeCursor(cursor) : null });
  const users = admin ? await userLabels(db, page.rows) : undefined;
  return { data: page.rows.map((row) => (admin ? adminLogView(row, names, users) : logView(row))), next_cursor: page.next ? encodeCursor(page.next) : null };
}

interface AttemptView {
  attempt: number;
  model: string | undefined;
  status: number | null;
  outcome: string | undefined;
  error: string | null;
  latency_ms: number | undefined;
}
type LogDetail<Row, Attempt> = Row & { calculation: ReturnType<typeof explainCharge>; attempts: Attempt[] };

/** One call with its attempts; for a user, attempts carry no channel names. */
export async function readLogDetail(db: Db, id: number, ownerId: number): Promise<LogDetail<LogView, AttemptView>>;
export async function readLogDetail(db: Db, id: number, ownerId: null): Promise<LogDetail<AdminLogView, AttemptView & { channel: string | null }>>;
export async function readLogDetail(db: Db, id: number, ownerId: number | null): Promise<LogDetail<LogView | AdminLogView, AttemptView & { channel?: string | null }>> {
  const row = await findUsageLog(db, id, ownerId);
  if (!row) throw apiNotFound('Log entry');
  const admin = ownerId === null;
  type Attempt = { model?: string | undefined; channel: string | null; status: number | null; outcome?: string | undefined; error: string | null; ms?: number | undefined };
  // The relay records attempts only when there was more than one; a single attempt is the call itself.
  const attempts: Attempt[] = loggedAttemptsOf(row.attempts_json)
    ?? [{ model: row.upstream_model ?? row.model, channel: row.channel_id === null ? null : (await channelNames(db)).get(row.channel_id) ?? null, status: row.status, outcome: row.status < 400 ? 'success' : 'error', error: row.error, ms: row.latency_ms }];
  const model = await findModel(db, row.model);
  return {
    ...(admin ? adminLogView(row, await channelNames(db), await userLabels(db, [row])) : logView(row)),
    // How the charge was computed, from the row and the model's price in force (src/metering/charge-explanation.ts).
    calculation: explainCharge(row, model?.pricing, model?.free === 1),
    attempts: attempts.map((attempt, index) => ({ attempt: index + 1, model: attempt.model, status: attempt.status, outcome: attempt.outcome, error: attempt.error, latency_ms: attempt.ms, ...(admin ? { channel: attempt.channel } : {}) })),
  };
}

const CSV_COLUMNS = ['id', 'created_at', 'request_id', 'key_name', 'model', 'endpoint', 'stream', 'status', 'outcome', 'latency_ms', 'ttft_ms', 'input_tokens', 'cached_tokens', 'output_tokens', 'reasoning_tokens', 'cost_usd', 'error'] as const;
/** The administrators' export: whose call, which key and channel, and the error code besides. */
const ADMIN_CSV_COLUMNS = ['id', 'created_at', 'request_id', 'user_id', 'user_name', 'user_email', 'key_id', 'key_name', 'model', 'upstream_model', 'channel', 'endpoint', 'stream', 'status', 'outcome', 'error_code', 'latency_ms', 'ttft_ms', 'input_tokens', 'cached_tokens', 'output_tokens', 'reasoning_tokens', 'cost_usd', 'error'] as const;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The CSV, header first, then rows a page at a time (1000 rows in memory at most); `ownerId` null is the
 * administrators' export of everyone's calls, with user names, e-mails and channels. `query` null: no
 * call can match (the e-mail of nobody), the header alone.
 */
export async function* logsCsv(db: Db, query: LogQuery | null, ownerId: number | null): AsyncGenerator<string> {
  const admin = ownerId === null;
  const columns: readonly string[] = admin ? ADMIN_CSV_COLUMNS : CSV_COLUMNS;
  yield `${columns.join(',')}\n`;
  if (query === null) return;
  const names = admin ? await channelNames(db) : undefined;
  const filter = toFilter(query, ownerId, names);
  let after: UsageLogCursor | null = null;
  do {
    const page = await listUsageLogs(db, filter, { limit: 1000, after });
    const users = admin ? await userLabels(db, page.rows) : undefined;
    let chunk = '';
    for (const row of page.rows) {
      const view: Record<string, unknown> = admin ? adminLogView(row, names, users) : logView(row);
      chunk += `${columns.map((column) => csvCell(view[column])).join(',')}\n`;
    }
    if (chunk) yield chunk;
    after = page.next;
  } while (after);
}
