// Upstream channels. api_keys_encrypted is sealed with a random nonce, so the same keys encrypt differently
// each time: callers leave it out of an upsert when the plaintext keys did not change, or every apply of
// the config would rewrite the row.
import type { ChannelRow, ChannelsTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

/** On insert, `type` and `api_keys_encrypted` are required (NOT NULL without a default). */
type ChannelFields = Partial<Omit<ChannelsTable, 'id' | 'name' | 'created_at' | 'updated_at'>>;

export async function upsertChannelByName(db: Db, name: string, fields: ChannelFields, now = Date.now()): Promise<UpsertResult<ChannelRow>> {
  return upsertRow<ChannelRow>(db, { table: 'channels', key: { name }, fields, idColumn: 'id', now });
}

export async function findChannelById(db: Db, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findChannelByName(db: Db, name: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Highest priority first, the order the routing table wants. */
export async function listChannels(db: Db): Promise<ChannelRow[]> {
  return db.selectFrom('channels').selectAll().orderBy('priority', 'desc').orderBy('id').execute();
}

/**
 * Enables or disables a channel (auto_disabled is the health checker's verdict). Returns whether anything
 * changed, so a breaker firing repeatedly does not rewrite the row or re-announce the change.
 */
export async function setChannelStatus(db: Db, id: number, status: ChannelRow['status'], reason: string | null = null, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('channels').set({ status, status_reason: reason, updated_at: now })
    .where('id', '=', id)
    // "status or reason differs", spelled null-safely in SQL both engines accept.
    .where((eb) => eb.or([
      eb('status', '!=', status),
      reason === null ? eb('status_reason', 'is not', null) : eb.or([eb('status_reason', 'is', null), eb('status_reason', '!=', reason)]),
    ]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
