// Who owns each Responses API id the gateway relayed. A response id is a capability upstream: whoever
// presents it can continue (previous_response_id), read or delete that conversation, and every user of the
// gateway reaches the upstream with the same channel credentials. So the gateway records each id's owner
// when the answer passes through, and refuses anyone else's id with the 404 an unknown id gets.
//
// Hot path: recording is a Map insert plus a queued row (written behind in batches, like usage logs) and,
// with Redis, a fire-and-forget SET so other instances know the id at once. Only a request that names an
// id looks it up: memory, then Redis, then the database.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseSchema } from '../db/schema.ts';
import { insertResponseOwnerBatch, type ResponseOwnerRow } from '../db/repositories/responses.ts';
import type { RedisContext } from '../cluster/redis-connection.ts';
import { createWriteBehindQueue } from '../metering/write-behind-queue.ts';

export interface ResponseOwner {
  userId: number;
  /** The channel that holds the response upstream, or null. */
  channelId: number | null;
}

export interface RelayedResponse extends ResponseOwner {
  id: string;
  keyId: number | null;
  model: string;
}

export interface ResponseOwners {
  remember(response: RelayedResponse): void;
  /** The owner of an id, or null when the gateway never relayed it (or it expired or was deleted). */
  lookup(id: string): Promise<ResponseOwner | null>;
  /**
   * After a successful DELETE: the id is unknown from now on here, in Redis and in the database. Another
   * instance that has it in memory still lets its owner (only) reach the upstream, which answers 404.
   */
  forget(id: string): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface ResponseOwnersOptions {
  db: Kysely<DatabaseSchema>;
  logger: Logger;
  redis?: RedisContext | undefined;
  flushIntervalMs: number;
  /** How long an id is remembered; OpenAI keeps stored responses 30 days. */
  retentionMs?: number;
  /** Ids kept in memory (the most recent); older ones are found in Redis or the database. */
  memoryEntries?: number;
}

export const RESPONSE_RETENTION_MS = 30 * 86_400_000;
/** Longer strings are not ids any upstream issues; refused without a lookup. */
export const MAX_RESPONSE_ID_LENGTH = 256;

export function createResponseOwners(options: ResponseOwnersOptions): ResponseOwners {
  const retentionMs = options.retentionMs ?? RESPONSE_RETENTION_MS;
  const memoryEntries = options.memoryEntries ?? 50_000;
  const recent = createRecentIds(memoryEntries);
  const redisKey = (id: string) => `${options.redis!.prefix}resp:${id}`;

  const queue = createWriteBehindQueue<ResponseOwnerRow>({
    intervalMs: options.flushIntervalMs,
    maxBatch: 500,
    write: (rows) => insertResponseOwnerBatch(options.db, rows),
    onError: (error, rows) => options.logger.error({ err: error, responses: rows.length }, 'response ids could not be written; they will be retried'),
  });

  const remember = (id: string, owner: ResponseOwner) => {
    // Ids are unique upstream; should one repeat, the first owner keeps it (as the database row does).
    const earlier = recent.get(id);
    if (earlier && earlier.userId !== owner.userId) return;
    recent.set(id, owner);
  };

  const sweep = setInterval(() => {
    options.db.deleteFrom('responses').where('expires_at', '<', Date.now()).execute()
      .catch((error: unknown) => options.logger.warn({ err: error }, 'sweeping expired response ids failed'));
  }, 3_600_000);
  sweep.unref();

  return {
    remember(response) {
      if (!response.id || response.id.length > MAX_RESPONSE_ID_LENGTH) return;
      const owner = { userId: response.userId, channelId: response.channelId };
      remember(response.id, owner);
      const now = Date.now();
      queue.enqueue({ id: response.id, user_id: response.userId, key_id: response.keyId, channel_id: response.channelId, model: response.model.slice(0, 256), created_at: now, expires_at: now + retentionMs });
      options.redis?.redis.set(redisKey(response.id), `${owner.userId}:${owner.channelId ?? ''}`, 'PX', retentionMs)
        .catch((error: unknown) => options.logger.warn({ err: error }, 'sharing a response id over Redis failed; other instances will read it from the database'));
    },
    async lookup(id) {
      if (id.length === 0 || id.length > MAX_RESPONSE_ID_LENGTH) return null;
      const known = recent.get(id);
      if (known) return known;
      if (options.redis) {
        const shared = await options.redis.redis.get(redisKey(id)).catch(() => null);
        if (shared !== null) {
          const [user, channel] = shared.split(':');
          const owner = { userId: Number(user), channelId: channel ? Number(channel) : null };
          remember(id, owner);
          return owner;
        }
      }
      const row = await options.db.selectFrom('responses').select(['user_id', 'channel_id', 'expires_at', 'deleted_at']).where('id', '=', id).executeTakeFirst();
      if (!row || row.deleted_at !== null || (row.expires_at !== null && row.expires_at < Date.now())) return null;
      const owner = { userId: row.user_id, channelId: row.channel_id };
      remember(id, owner);
      return owner;
    },
    async forget(id) {
      recent.delete(id);
      await options.redis?.redis.del(redisKey(id)).catch(() => 0);
      // The row may still be queued: write it first, so the deletion mark lands on it.
      await queue.flush();
      await options.db.updateTable('responses').set({ deleted_at: Date.now() }).where('id', '=', id).execute();
      // A lookup that ran meanwhile may have cached it again from the not-yet-marked row.
      recent.delete(id);
    },
    flush: () => queue.flush(),
    async close() {
      clearInterval(sweep);
      await queue.close();
    },
  };
}

interface RecentIds {
  get(id: string): ResponseOwner | undefined;
  set(id: string, owner: ResponseOwner): void;
  delete(id: string): void;
}

/**
 * The most recent ids, at most `capacity`, in two generations: when the young one is half full it becomes
 * the old one and the previous old one is dropped. O(1) per call; evicting one key at a time from a Map
 * (`keys().next()` after many deletes) walks the deleted slots and cost ~50 µs a call at 50,000 entries.
 */
function createRecentIds(capacity: number): RecentIds {
  const half = Math.max(1, Math.floor(capacity / 2));
  let young = new Map<string, ResponseOwner>();
  let old = new Map<string, ResponseOwner>();
  return {
    get: (id) => young.get(id) ?? old.get(id),
    set(id, owner) {
      if (young.size >= half) {
        old = young;
        young = new Map();
      }
      young.set(id, owner);
    },
    delete(id) {
      young.delete(id);
      old.delete(id);
    },
  };
}
