// Deletes usage-log rows and fine-grained statistics past their retention, hourly. Day buckets are kept:
// they are small and are the long-term history.
import type { Logger } from 'pino';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { deleteOldResponses, deleteStatBucketsBefore, deleteUsageLogsBefore } from '../db/repositories/retention.ts';

const DAY_MS = 86_400_000;
export const MINUTE_STATS_RETENTION_MS = 2 * DAY_MS;
export const HOUR_STATS_RETENTION_MS = 90 * DAY_MS;

export async function applyRetention(db: Db, logRetentionDays: number, now = Date.now()): Promise<{ logs: number; stats: number; responses: number }> {
  let logs = 0;
  if (logRetentionDays > 0) {
    logs = await deleteUsageLogsBefore(db, now - logRetentionDays * DAY_MS);
  }
  // Responses kept by the gateway live as long as the usage log: past their expiry, or older than the
  // retention in force now (it may have been shortened since they were kept). Their items go with them.
  const responses = await deleteOldResponses(db, now, logRetentionDays > 0 ? now - logRetentionDays * DAY_MS : null);
  let stats = 0;
  // The roll-ups keep the same buckets as usage_stats, so a platform series and a user's agree on what
  // history there is. Deleting aggregates never touches the log, nor the log's deletion the aggregates.
  for (const table of ['usage_stats', 'usage_stats_platform', 'usage_stats_keys'] as const) {
    // Six-hour buckets (usage_stats_keys only) go with the hour buckets they sum; week buckets stay, like days.
    for (const [bucket, keptFor] of [['minute', MINUTE_STATS_RETENTION_MS], ['hour', HOUR_STATS_RETENTION_MS], ['six_hours', HOUR_STATS_RETENTION_MS]] as const) {
      stats += await deleteStatBucketsBefore(db, table, bucket, now - keptFor);
    }
  }
  return { logs, stats, responses };
}

export function scheduleRetention(db: Db, logger: Logger, logRetentionDays: number): () => void {
  const run = () => applyRetention(db, logRetentionDays).then(
    (deleted) => deleted.logs + deleted.stats + deleted.responses > 0 && logger.info(deleted, 'old usage logs, statistics and kept responses deleted'),
    (error: unknown) => logger.error({ err: error }, 'retention cleanup failed'),
  );
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
