// /api/logs, /api/logs/:id, /api/logs.csv, /api/stats and /api/wallet: what a user spent, call by call and
// in sums. Also GET /api/admin/logs(/:id) (everyone's, with channels). An sk- key may read them too; with a
// key, /api/stats defaults to that key's statistics (as before the dashboard existed).
import { Readable } from 'node:stream';
import { z } from 'zod';
import { type ApiRouter, lazyAnswer, idParams, timeParam } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import type { Accounting } from '../../metering/accounting.ts';
import { logsCsv, readLogDetail, readLogPage } from '../../accounts/usage-log-reader.ts';
import { DEFAULT_KEYS_LISTED, MAX_KEYS_LISTED, readStatsReport } from '../../accounts/usage-stats-reader.ts';
import { readLedgerPage, readWalletSummary } from '../../accounts/wallet-reader.ts';
import { forbidden, invalidRequest } from '../../gateway-errors.ts';
import { ownKey } from '../../accounts/user-keys.ts';
import type { StatScope } from '../../metering/statistics.ts';
import { findUserIdByEmailAnyCase } from '../../db/repositories/users.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const usageAnswers = () => import('./answers/usage-answers.ts');

const positiveId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const logFilters = {
  from: timeParam.optional(),
  to: timeParam.optional(),
  key_id: positiveId.optional(),
  model: z.string().min(1).max(200).optional(),
  outcome: z.enum(['success', 'error']).optional(),
};
const logQuery = z.object({ ...logFilters, limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.string().max(100).optional() }).strict();
// The administrators' filters: a user by id or e-mail, a channel, the exact status, the gateway error code.
const adminLogFilters = {
  ...logFilters,
  user_id: positiveId.optional(),
  user: z.string().trim().min(1).max(254).optional(),
  channel_id: positiveId.optional(),
  status: z.coerce.number().int().min(100).max(599).optional(),
  error_code: z.string().min(1).max(100).optional(),
};
const adminLogQuery = z.object({ ...adminLogFilters, limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.string().max(100).optional() }).strict();

export function apiUsageRoutes(api: ApiRouter, deps: AccountsDeps, accounting: Accounting): void {
  const tag = 'Usage';
  api.route({
    method: 'GET', url: '/api/logs', tag, access: 'verified', allowKeys: true, query: logQuery, summary: 'My calls, newest first; filters; cursor pagination (next_cursor).',
    answer: lazyAnswer(usageAnswers, (m) => m.logPageAnswer),
    handler: async ({ caller, query }) => readLogPage(deps.db, query, caller.user.id, query.limit, query.cursor),
  });
  api.route({
    method: 'GET', url: '/api/logs/:id', tag, access: 'verified', allowKeys: true, params: idParams, summary: 'One call: timing, tokens, cost, attempts.',
    answer: lazyAnswer(usageAnswers, (m) => m.logDetailAnswer),
    handler: async ({ caller, params }) => readLogDetail(deps.db, params.id, caller.user.id),
  });
  api.route({
    method: 'GET', url: '/api/logs.csv', tag, access: 'verified', allowKeys: true, query: z.object(logFilters).strict(), produces: 'text/csv', summary: 'My calls as CSV, streamed row by row.',
    handler: async ({ caller, query, reply }) => reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="usage-logs.csv"')
      .send(Readable.from(logsCsv(deps.db, query, caller.user.id))),
  });
  // `user` is an e-mail: one that belongs to nobody matches no call (an empty page, not an error).
  const withUser = async <Q extends { user?: string | undefined; user_id?: number | undefined }>(query: Q): Promise<Q | null> => {
    if (query.user === undefined) return query;
    const found = await findUserIdByEmailAnyCase(deps.db, query.user);
    if (found === undefined || (query.user_id !== undefined && query.user_id !== found)) return null;
    return { ...query, user_id: found };
  };
  api.route({
    method: 'GET', url: '/api/admin/logs', tag: 'Administration', access: 'admin', allowKeys: true, query: adminLogQuery,
    summary: "Everyone's calls, newest first, with the user's name and e-mail and the channel; filters: user (user_id or the e-mail in user), key_id, model, channel_id, outcome, status, error_code, from/to.",
    answer: lazyAnswer(usageAnswers, (m) => m.adminLogPageAnswer),
    handler: async ({ query }) => {
      const resolved = await withUser(query);
      return resolved ? readLogPage(deps.db, resolved, null, query.limit, query.cursor) : { data: [], next_cursor: null };
    },
  });
  api.route({
    method: 'GET', url: '/api/admin/logs.csv', tag: 'Administration', access: 'admin', allowKeys: true, query: z.object(adminLogFilters).strict(), produces: 'text/csv',
    summary: "Everyone's calls matching the same filters as CSV (user name and e-mail, key, channel, error code), streamed a page at a time.",
    handler: async ({ query, reply }) => {
      const resolved = await withUser(query);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="all-usage-logs.csv"')
        .send(Readable.from(logsCsv(deps.db, resolved, null)));
    },
  });
  api.route({
    method: 'GET', url: '/api/admin/logs/:id', tag: 'Administration', access: 'admin', allowKeys: true, params: idParams, summary: 'One call with channel names.',
    answer: lazyAnswer(usageAnswers, (m) => m.adminLogDetailAnswer),
    handler: async ({ params }) => readLogDetail(deps.db, params.id, null),
  });

  api.route({
    method: 'GET', url: '/api/stats', tag, access: 'verified', allowKeys: true, summary: 'Requests, errors, cost, tokens, RPM and TPM: totals and series by minute, hour or day, by model, and by key (the `keys` that cost most, the rest summed in by_key_rest).',
    query: z.object({
      bucket: z.enum(['minute', 'hour', 'day']).default('hour'),
      from: timeParam.optional(),
      to: timeParam.optional(),
      scope: z.enum(['key', 'user', 'platform']).optional(),
      key_id: positiveId.optional(),
      // by_key lists this many keys, those that cost most; by_key_rest sums the others.
      keys: z.coerce.number().int().min(1).max(MAX_KEYS_LISTED).default(DEFAULT_KEYS_LISTED),
    }).strict(),
    answer: lazyAnswer(usageAnswers, (m) => m.statsAnswer),
    handler: async ({ caller, query }) => {
      const to = query.to ?? Date.now();
      const from = query.from ?? to - 86_400_000;
      if (from > to) throw invalidRequest("'from' must not be after 'to'.", 'from', 'invalid_value');
      const scopeName = query.scope ?? (query.key_id !== undefined || caller.via === 'key' ? 'key' : 'user');
      let scope: StatScope;
      if (scopeName === 'platform') {
        if (caller.user.role !== 'admin') throw forbidden('Platform statistics are for administrators.', 'admin_only');
        scope = { kind: 'platform' };
      } else if (scopeName === 'key') {
        const keyId = query.key_id ?? caller.keyId;
        if (keyId === undefined) throw invalidRequest("Give 'key_id' for scope=key.", 'key_id', 'missing_required_parameter');
        await ownKey(deps, caller.user.id, keyId);
        scope = { kind: 'key', keyId };
      } else {
        scope = { kind: 'user', userId: caller.user.id };
      }
      return { scope: scopeName, ...await readStatsReport(deps.db, scope, query.bucket, from, to, query.keys), from, to };
    },
  });

  api.route({
    method: 'GET', url: '/api/wallet', tag, access: 'verified', allowKeys: true, summary: 'Balance, total usage, requests, and the ledger (charges summed per day), paginated.',
    query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().max(100).optional() }).strict(),
    answer: lazyAnswer(usageAnswers, (m) => m.walletAnswer),
    handler: async ({ caller, query }) => ({
      ...await readWalletSummary(deps.db, caller.user.id, await accounting.balance(caller.user.id)),
      ledger: await readLedgerPage(deps.db, caller.user.id, query.limit, query.cursor),
    }),
  });
}
