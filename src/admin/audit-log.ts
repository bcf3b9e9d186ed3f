// Every administrative change is recorded: who, what, on which thing, the state before and after, when.
// Secrets never enter it (callers pass views, which leave upstream keys and hashes out).
import { insertAuditEntry, listAuditEntries } from '../db/repositories/audit-log.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';

export interface AuditActor {
  userId: number | null;
  name: string;
}

export async function recordAudit(db: Db, actor: AuditActor, action: string, target: string, before: unknown, after: unknown): Promise<void> {
  await insertAuditEntry(db, { at: Date.now(), actor_user_id: actor.userId, actor: actor.name, action, target, before, after });
}

export async function listAudit(db: Db, limit: number, beforeId: number | undefined) {
  const rows = await listAuditEntries(db, limit, beforeId);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  return {
    data: rows.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor: row.actor,
      actor_user_id: row.actor_user_id,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
    })),
    next_cursor: more ? String(rows[rows.length - 1]!.id) : null,
  };
}
