// The wallet page: balance, total usage and requests, and the ledger (top-ups, grants and refunds one by
// one, charges summed per day), newest first, paginated with a cursor.
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { WalletLedgerRow } from '../db/schema.ts';
import { invalidRequest } from '../gateway-errors.ts';
import { listMovementsBefore, sumChargesPerDayBefore, sumUserDayTotals } from '../db/repositories/wallet-page.ts';

interface LedgerEntryView {
  /** A movement's kind; 'charges' for a day's charges summed. */
  kind: WalletLedgerRow['kind'] | 'charges';
  amount_usd: number;
  at: string;
  note: string | null;
  reference: string | null;
  /** For charges: how many calls the day's sum covers. */
  count?: number;
}

export async function readWalletSummary(db: Db, userId: number, liveBalanceMicros: number) {
  // From the day aggregates, so it costs the same with a million calls.
  const totals = await sumUserDayTotals(db, userId);
  return {
    balance_usd: liveBalanceMicros / 1_000_000,
    total_usage_usd: totals.cost_micros / 1_000_000,
    requests: totals.requests,
  };
}

/** `before`: an opaque cursor (the next_cursor of the previous page). */
export async function readLedgerPage(db: Db, userId: number, limit: number, before: string | undefined) {
  let until = Number.MAX_SAFE_INTEGER;
  if (before !== undefined) {
    until = Number(Buffer.from(before, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(until)) throw invalidRequest("Invalid value for 'cursor'.", 'cursor', 'invalid_value');
  }
  const movements = await listMovementsBefore(db, userId, until, limit);
  // Charges per day come from the day aggregates; a day is listed once, at its start.
  const charges = await sumChargesPerDayBefore(db, userId, until, limit);
  const entries: (LedgerEntryView & { ms: number })[] = [
    ...movements.map((row) => ({ kind: row.kind, amount_usd: row.amount_micros / 1_000_000, at: new Date(row.created_at).toISOString(), note: row.note, reference: row.reference, ms: row.created_at })),
    ...charges.map((row) => ({ kind: 'charges' as const, amount_usd: -row.amount / 1_000_000, at: new Date(row.day).toISOString(), note: null, reference: null, count: row.n, ms: row.day })),
  ].sort((a, b) => b.ms - a.ms);
  const page = entries.slice(0, limit);
  const more = entries.length > limit || movements.length === limit || charges.length === limit;
  const last = page[page.length - 1];
  return {
    data: page.map(({ ms: _ms, ...entry }) => entry),
    next_cursor: more && last ? Buffer.from(String(last.ms)).toString('base64url') : null,
  };
}
