// Upstream channels. api_keys_encrypted is sealed with a random nonce, so the same keys encrypt differently
// each time: callers leave it out of an upsert when the plaintext keys did not change, or every apply of
// the config would rewrite the row.
// Reads return `Channel`: the row with its JSON columns parsed once, here (json-columns.ts).
import type { ChannelRow, ChannelsTable } from '../schema.ts';
import { channelSettingsColumn, parseJsonColumn, stringListColumn, stringMapColumn, type ChannelSettings } from '../json-columns.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

export type { ChannelSettings } from '../json-columns.ts';

export interface Channel extends Omit<ChannelRow, 'models_json' | 'model_mapping_json' | 'groups_json' | 'settings_json'> {
  models: string[];
  /** Client model id → the upstream's. */
  model_mapping: Record<string, string>;
  groups: string[];
  settings: ChannelSettings;
}

export function channelOf(row: ChannelRow): Channel {
  const { models_json, model_mapping_json, groups_json, settings_json, ...rest } = row;
  const where = (column: string) => `channel '${row.name}': ${column}`;
  return {
    ...rest,
    models: parseJsonColumn(stringListColumn, models_json, where('models_json')),
    model_mapping: parseJsonColumn(stringMapColumn, model_mapping_json, where('model_mapping_json')),
    groups: parseJsonColumn(stringListColumn, groups_json, where('groups_json')),
    settings: parseJsonColumn(channelSettingsColumn, settings_json, where('settings_json')),
  };
}

/** On insert, `type` and `api_keys_encrypted` are required (NOT NULL without a default). */
type ChannelFields = Partial<Omit<ChannelsTable, 'id' | 'name' | 'created_at' | 'updated_at'>>;

export async function upsertChannelByName(db: Db, name: string, fields: ChannelFields, now = Date.now()): Promise<UpsertResult<ChannelRow>> {
  return upsertRow<ChannelRow>(db, { table: 'channels', key: { name }, fields, idColumn: 'id', now });
}

export async function findChannelById(db: Db, id: number): Promise<Channel | undefined> {
  const row = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  return row && channelOf(row);
}

export async function findChannelByName(db: Db, name: string): Promise<Channel | undefined> {
  const row = await db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst();
  return row && channelOf(row);
}

/** Highest priority first, the order the routing table wants; by id for the admin's list. */
export async function listChannels(db: Db, order: 'priority' | 'id' = 'priority'): Promise<Channel[]> {
  const query = db.selectFrom('channels').selectAll();
  return (await (order === 'id' ? query.orderBy('id') : query.orderBy('priority', 'desc').orderBy('id')).execute()).map(channelOf);
}

type NewChannel = Omit<ChannelsTable, 'id' | 'created_at' | 'updated_at'>;

/** Throws the engine's unique violation when the name is taken (the caller answers 409). */
export async function insertChannel(db: Db, fields: NewChannel, now = Date.now()): Promise<Channel> {
  return channelOf(await db.insertInto('channels').values({ ...fields, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow());
}

/** Undefined when there is no such channel. */
export async function updateChannel(db: Db, id: number, fields: Partial<NewChannel>, now = Date.now()): Promise<Channel | undefined> {
  const row = await db.updateTable('channels').set({ ...fields, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirst();
  return row && channelOf(row);
}

/** The deleted channel, or undefined when there was none. */
export async function deleteChannelById(db: Db, id: number): Promise<Channel | undefined> {
  const row = await db.deleteFrom('channels').where('id', '=', id).returningAll().executeTakeFirst();
  return row && channelOf(row);
}

/** The health checker's verdict: only an enabled channel is disabled (an administrator's choice stands). */
export async function autoDisableChannelById(db: Db, id: number, reason: string, now = Date.now()): Promise<void> {
  await db.updateTable('channels').set({ status: 'auto_disabled', status_reason: reason, updated_at: now })
    .where('id', '=', id).where('status', '=', 'enabled').execute();
}

/** An administrator's choice; returns whether the channel exists. */
export async function setChannelEnabledById(db: Db, id: number, enabled: boolean, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('channels')
    .set({ status: enabled ? 'enabled' : 'disabled', status_reason: enabled ? null : 'disabled by an administrator', updated_at: now })
    .where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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

/** Channels the health checker disabled, for the scheduled re-test (an administrator's disabled ones stay so). */
export async function listAutoDisabledChannels(db: Db): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('channels').select(['id', 'name']).where('status', '=', 'auto_disabled').execute();
}

/** Every channel's identity and status, by id (no settings parsed): the platform overview's health list. */
export async function listChannelStatuses(db: Db) {
  return db.selectFrom('channels').select(['id', 'name', 'type', 'status', 'status_reason']).orderBy('id').execute();
}

/** Every channel's name by id (a log page names the channels its rows were served by). */
export async function channelNamesById(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('channels').select(['id', 'name']).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
