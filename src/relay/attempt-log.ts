// The call's log of attempt outcomes: each attempt on a route (and each segment that continued a broken
// stream) ends in one immutable record, appended here once. The usage record is derived from the log and
// the answer at the end (record-call.ts); nothing edits a record after it is made.
import type { AttemptRecord, CallMeter } from './relay-types.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';

export function attemptRecord(model: string, channel: string, status: number | null, outcome: string, error: string | null, startedAt: number, code?: GatewayErrorCode): AttemptRecord {
  return attemptRecordAt(model, channel, status, outcome, error, startedAt, performance.now(), code);
}

/**
 * The same, ended at a time the caller already took: the attempt loop keeps that time as the end of the
 * attempt's wait on its upstream (the overhead header), so the record and the wait share one clock read.
 */
export function attemptRecordAt(model: string, channel: string, status: number | null, outcome: string, error: string | null, startedAt: number, endedAt: number, code?: GatewayErrorCode): AttemptRecord {
  const ms = Math.round(endedAt - startedAt);
  // Two literals rather than a conditional spread: V8 defines every property after a spread in a literal
  // through a runtime call (~1,500 instructions each), on every attempt of every call.
  return Object.freeze(code ? { model, channel, status, outcome, error, code, ms } : { model, channel, status, outcome, error, ms });
}

/** The only way the log grows. */
export function logAttempt(meter: CallMeter, record: AttemptRecord): void {
  // The first record gets an array of its own size: a push on the empty array reserves 17 slots, which a
  // call keeps for as long as its stream is open (most calls log one attempt).
  if (meter.attempts.length === 0) (meter as { attempts: readonly AttemptRecord[] }).attempts = [record];
  else (meter.attempts as AttemptRecord[]).push(record);
}
