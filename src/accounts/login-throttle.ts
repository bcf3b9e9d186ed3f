// Failed sign-ins are throttled per account (any e-mail address, known or not) and per client address:
// after 5 failures for an account (20 from one client address, so an office behind one NAT is not shut
// out by a few typos, while password spraying is still bounded) within 15 minutes, the next attempt gets
// 429 with Retry-After until the oldest of those failures is 15 minutes old. Kept in
// the database so every instance sees the same count. A stranger can therefore hold an account for at most
// 15 minutes at a time, and its owner can always end that at once with a password reset, which clears the
// account's failures.
import type { Db } from '../db/repositories/repository-helpers.ts';
import { deleteFailuresBefore, deleteFailuresOf, insertFailures, recentFailureTimes } from '../db/repositories/login-failures.ts';

const MAX_FAILURES = 5;
const MAX_FAILURES_PER_IP = 20;
export const FAILURE_WINDOW_MS = 15 * 60_000;

export const ipSubject = (ip: string) => `ip:${ip}`;
export const accountSubject = (email: string) => `account:${email}`;

/** Seconds to wait before another attempt, or 0 when allowed. */
export async function throttleDelaySeconds(db: Db, subjects: string[], now = Date.now()): Promise<number> {
  let wait = 0;
  for (const subject of subjects) {
    const limit = subject.startsWith('ip:') ? MAX_FAILURES_PER_IP : MAX_FAILURES;
    const times = await recentFailureTimes(db, subject, now - FAILURE_WINDOW_MS, limit);
    if (times.length < limit) continue;
    const oldest = times[times.length - 1]!;
    wait = Math.max(wait, Math.ceil((oldest + FAILURE_WINDOW_MS - now) / 1000));
  }
  return wait;
}

export async function recordFailure(db: Db, subjects: string[], now = Date.now()): Promise<void> {
  await insertFailures(db, subjects, now);
  // Old rows are of no use: trim them now and then (1 in 50 failures) so the table stays small.
  if (Math.random() < 0.02) await deleteFailuresBefore(db, now - FAILURE_WINDOW_MS);
}

export async function clearFailures(db: Db, subject: string): Promise<void> {
  await deleteFailuresOf(db, subject);
}
