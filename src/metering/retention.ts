// Deletes usage-log rows and fine-grained statistics past their retention, hourly. Day buckets are kept:
// they are small and are the long-term history.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseSchema } from '../db/schema.ts';

const DAY_MS = 86_400_000;
export const MINUTE_STATS_RETENTION_MS = 2 * DAY_MS;
export const HOUR_STATS_RETENTION_MS = 90 * DAY_MS;

export async function applyRetention(db: Kysely<DatabaseSchema>, logRetentionDays: number, now = Date.now()): Promise<{ logs: number; stats: number; responses: number }> {
  let logs = 0;
  if (logRetentionDays > 0) {
    const result = await db.deleteFrom('usage_logs').where('created_at', '<', now - logRetentionDays * DAY_MS).executeTakeFirst();
    logs = Number(result.numDeletedRows);
  }
  const responses = await deleteOldResponses(db, logRetentionDays, now);
  let stats = 0;
  // The roll-ups keep the same buckets as usage_stats, so a platform series and a user's agree on what
  // history there is. Deleting aggregates never touches the log, nor the log's deletion the aggregates.
  for (const table of ['usage_stats', 'usage_stats_platform', 'usage_stats_keys'] as const) {
    // Six-hour buckets (usage_stats_keys only) go with the hour buckets they sum; week buckets stay, like days.
    for (const [bucket, keptFor] of [['minute', MINUTE_STATS_RETENTION_MS], ['hour', HOUR_STATS_RETENTION_MS], ['six_hours', HOUR_STATS_RETENTION_MS]] as const) {
      const result = await db.deleteFrom(table).where('bucket', '=', bucket).where('bucket_start', '<', now - keptFor).executeTakeFirst();
      stats += Number(result.numDeletedRows);
    }
  }
  return { logs, stats, responses };
}

/**
 * Responses kept by the gateway live as long as the usage log: past their expiry, or older than the
 * retention in force now (it may have been shortened since they were kept). Their items go with them.
 */
async function deleteOldResponses(db: Kysely<DatabaseSchema>, logRetentionDays: number, now: number): Promise<number> {
  const cutoff = logRetentionDays > 0 ? now - logRetentionDays * DAY_MS : null;
  const old = db.selectFrom('responses').select('id').where((eb) => eb.or([
    eb('expires_at', '<', now),
    ...(cutoff === null ? [] : [eb.and([eb('state_kept_by', '=', 'gateway'), eb('created_at', '<', cutoff)])]),
  ]));
  await db.deleteFrom('response_items').where((eb) => eb.or([eb('expires_at', '<', now), eb('response_id', 'in', old)])).execute();
  const result = await db.deleteFrom('responses').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function scheduleRetention(db: Kysely<DatabaseSchema>, logger: Logger, logRetentionDays: number): () => void {
  const run = () => applyRetention(db, logRetentionDays).then(
    (deleted) => deleted.logs + deleted.stats + deleted.responses > 0 && logger.info(deleted, 'old usage logs, statistics and kept responses deleted'),
    (error: unknown) => logger.error({ err: error }, 'retention cleanup failed'),
  );
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
