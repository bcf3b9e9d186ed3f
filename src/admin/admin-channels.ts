// Channel status: disabled automatically when an upstream refuses its key, re-enabled by an admin.
import { autoDisableChannelById, setChannelEnabledById } from '../db/repositories/channels.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { AnnounceChange } from '../cluster/invalidation-bus.ts';
import { notFound } from './admin-keys.ts';

export async function autoDisableChannel(db: Db, announce: AnnounceChange, channelId: number, reason: string): Promise<void> {
  await autoDisableChannelById(db, channelId, reason.slice(0, 1000));
  await announce({ reason: `channel ${channelId} disabled automatically` });
}

export async function setChannelEnabled(db: Db, announce: AnnounceChange, channelId: number, enabled: boolean): Promise<void> {
  if (!(await setChannelEnabledById(db, channelId, enabled))) throw notFound(`Channel ${channelId}`);
  await announce({ reason: `channel ${channelId} ${enabled ? 'enabled' : 'disabled'}` });
}
