// The usage log's recent failures, for the platform overview's channel health (src/admin/platform-overview.ts).
// Apart from usage-logs.ts, which the metering worker loads: this one parses with zod (json-columns.ts).
import { loggedAttemptsOf } from '../json-columns.ts';
import type { Db } from './repository-helpers.ts';

/**
 * The calls since `since` that failed or failed over, newest first through the created_at index, at most
 * `limit`: what the platform overview counts as each channel's recent failures. Attempts come parsed.
 */
export async function listRecentFailedCalls(db: Db, since: number, limit: number) {
  const rows = await db.selectFrom('usage_logs').select(['channel_id', 'created_at', 'status', 'error', 'error_code', 'attempts_json'])
    .where('created_at', '>=', since).where((eb) => eb.or([eb('status', '>=', 400), eb('attempts_json', 'is not', null)]))
    .orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map(({ attempts_json, ...row }) => ({ ...row, attempts: loggedAttemptsOf(attempts_json) }));
}
