// Failed sign-ins (src/accounts/login-throttle.ts decides what they mean): one row per subject and failure.
import type { Db } from './repository-helpers.ts';

/** The times of a subject's latest failures since `since`, newest first, at most `limit`. */
export async function recentFailureTimes(db: Db, subject: string, since: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('login_failures').select('at').where('subject', '=', subject).where('at', '>', since)
    .orderBy('at', 'desc').limit(limit).execute();
  return rows.map((row) => row.at);
}

export async function insertFailures(db: Db, subjects: readonly string[], at: number): Promise<void> {
  await db.insertInto('login_failures').values(subjects.map((subject) => ({ subject, at }))).execute();
}

export async function deleteFailuresBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('login_failures').where('at', '<', before).execute();
}

export async function deleteFailuresOf(db: Db, subject: string): Promise<void> {
  await db.deleteFrom('login_failures').where('subject', '=', subject).execute();
}
