// Every administrative change is recorded: who, what, on which thing, the state before and after, when.
// Secrets never enter it (callers pass views, which leave upstream keys and hashes out).
import type { Db } from '../db/repositories/repository-helpers.ts';

export interface AuditActor {
  userId: number | null;
  name: string;
}

export async function recordAudit(db: Db, actor: AuditActor, action: string, target: string, before: unknown, after: unknown): Promise<void> {
  await db.insertInto('audit_log').values({
    at: Date.now(),
    actor_user_id: actor.userId,
    actor: actor.name,
    action,
    target,
    before_json: before === undefined || before === null ? null : JSON.stringify(before),
    after_json: after === undefined || after === null ? null : JSON.stringify(after),
  }).execute();
}

export async function listAudit(db: Db, limit: number, beforeId: number | undefined) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit + 1);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  const rows = await query.execute();
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
      before: row.before_json === null ? null : JSON.parse(row.before_json) as unknown,
      after: row.after_json === null ? null : JSON.parse(row.after_json) as unknown,
    })),
    next_cursor: more ? String(rows[rows.length - 1]!.id) : null,
  };
}
