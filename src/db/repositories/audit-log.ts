// The audit log: who changed what, with the views before and after (stored as JSON text, read back parsed).
import { parseJsonColumn } from '../json-columns.ts';
import { z } from 'zod';
import type { Db } from './repository-helpers.ts';

interface AuditEntry {
  id: number;
  at: number;
  actor_user_id: number | null;
  actor: string;
  action: string;
  target: string;
  /** The views as recorded; null when there was nothing (a creation has no before, a deletion no after). */
  before: unknown;
  after: unknown;
}

/** Any JSON value: a view of whatever changed. */
const viewColumn = z.unknown();

export async function insertAuditEntry(db: Db, entry: Omit<AuditEntry, 'id'>): Promise<void> {
  await db.insertInto('audit_log').values({
    at: entry.at,
    actor_user_id: entry.actor_user_id,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    before_json: entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
    after_json: entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
  }).execute();
}

/** Newest first, ids below `beforeId` when given; one more than `limit` tells the caller there is a next page. */
export async function listAuditEntries(db: Db, limit: number, beforeId: number | undefined): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit + 1);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  const rows = await query.execute();
  return rows.map(({ before_json, after_json, ...row }) => ({
    ...row,
    before: before_json === null ? null : parseJsonColumn(viewColumn, before_json, `audit entry ${row.id}: before_json`),
    after: after_json === null ? null : parseJsonColumn(viewColumn, after_json, `audit entry ${row.id}: after_json`),
  }));
}
