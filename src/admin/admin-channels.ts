// Channel status: disabled automatically when an upstream refuses its key, re-enabled by an admin.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { AnnounceChange } from '../cluster/invalidation-bus.ts';
import { notFound } from './admin-keys.ts';

export async function autoDisableChannel(db: Kysely<DatabaseSchema>, announce: AnnounceChange, channelId: number, reason: string): Promise<void> {
  await db.updateTable('channels').set({ status: 'auto_disabled', status_reason: reason.slice(0, 1000), updated_at: Date.now() })
    .where('id', '=', channelId).where('status', '=', 'enabled').execute();
  await announce({ reason: `channel ${channelId} disabled automatically` });
}

export async function setChannelEnabled(db: Kysely<DatabaseSchema>, announce: AnnounceChange, channelId: number, enabled: boolean): Promise<void> {
  const result = await db.updateTable('channels')
    .set({ status: enabled ? 'enabled' : 'disabled', status_reason: enabled ? null : 'disabled by an administrator', updated_at: Date.now() })
    .where('id', '=', channelId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(`Channel ${channelId}`);
  await announce({ reason: `channel ${channelId} ${enabled ? 'enabled' : 'disabled'}` });
}
