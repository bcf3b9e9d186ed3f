// Deletes usage-log rows and fine-grained statistics past their retention, hourly. Day buckets are kept:
// they are small and are the long-term history.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseSchema } from '../db/schema.ts';

const DAY_MS = 86_400_000;
export const MINUTE_STATS_RETENTION_MS = 2 * DAY_MS;
export const HOUR_STATS_RETENTION_MS = 90 * DAY_MS;

export async function applyRetention(db: Kysely<DatabaseSchema>, logRetentionDays: number, now = Date.now()): Promise<{ logs: number; stats: number }> {
  let logs = 0;
  if (logRetentionDays > 0) {
    const result = await db.deleteFrom('usage_logs').where('created_at', '<', now - logRetentionDays * DAY_MS).executeTakeFirst();
    logs = Number(result.numDeletedRows);
  }
  const minute = await db.deleteFrom('usage_stats').where('bucket', '=', 'minute').where('bucket_start', '<', now - MINUTE_STATS_RETENTION_MS).executeTakeFirst();
  const hour = await db.deleteFrom('usage_stats').where('bucket', '=', 'hour').where('bucket_start', '<', now - HOUR_STATS_RETENTION_MS).executeTakeFirst();
  return { logs, stats: Number(minute.numDeletedRows) + Number(hour.numDeletedRows) };
}

export function scheduleRetention(db: Kysely<DatabaseSchema>, logger: Logger, logRetentionDays: number): () => void {
  const run = () => applyRetention(db, logRetentionDays).then(
    (deleted) => deleted.logs + deleted.stats > 0 && logger.info(deleted, 'old usage logs and statistics deleted'),
    (error: unknown) => logger.error({ err: error }, 'retention cleanup failed'),
  );
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
