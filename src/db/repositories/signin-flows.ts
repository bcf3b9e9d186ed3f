// Single sign-on flows under way (src/accounts/signin-flows.ts): keyed by the hash of the browser's value.
import type { SigninFlowsTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

/** Stores a flow, clearing abandoned ones first: the table holds at most the flows still running. */
export async function insertSigninFlow(db: Db, row: SigninFlowsTable, now: number): Promise<void> {
  await db.deleteFrom('signin_flows').where('expires_at', '<=', now).execute();
  await db.insertInto('signin_flows').values(row).execute();
}

/**
 * Reads and deletes a flow. Undefined when there is none, or when another request's delete took it first
 * (two requests raced for the same flow: only the one whose delete removed it goes on).
 */
export async function takeSigninFlowRow(db: Db, idHash: string): Promise<SigninFlowsTable | undefined> {
  const row = await db.selectFrom('signin_flows').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('signin_flows').where('id_hash', '=', idHash).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? row : undefined;
}
