// Who owns each Responses API id the gateway relayed. A response id is a capability upstream: whoever
// presents it can continue (previous_response_id), read or delete that conversation, and every user of the
// gateway reaches the upstream with the same channel credentials. So the gateway records each id's owner
// when the answer passes through, and refuses anyone else's id with the 404 an unknown id gets.
//
// Hot path: recording is a Map insert plus a queued row (written behind in batches, like usage logs) and,
// with Redis, a fire-and-forget SET so other instances know the id at once. Only a request that names an
// id looks it up: memory, then Redis, then the database.
import type { Logger } from 'pino';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { deleteExpiredResponses, findResponseLink, insertResponseOwnerBatch, markResponseDeleted, type ResponseOwnerRow } from '../db/repositories/responses.ts';
import type { RedisContext } from '../cluster/redis-connection.ts';
import { createWriteBehindQueue } from '../metering/write-behind-queue.ts';
import { createKeptResponses, type KeptResponses } from './kept-responses.ts';
import { createUpstreamItemOwners, type UpstreamItemOwners } from './upstream-item-owners.ts';
import { createRecentIds } from './recent-ids.ts';

export interface ResponseOwner {
  userId: number;
  /** The channel that holds the response upstream, or null. */
  channelId: number | null;
  /** Where the conversation lives: on the channel ('upstream') or in the gateway's own store ('gateway'). */
  keptBy: 'upstream' | 'gateway';
}

export interface RelayedResponse extends Omit<ResponseOwner, 'keptBy'> {
  id: string;
  keyId: number | null;
  model: string;
}

export interface ResponseOwners {
  remember(response: RelayedResponse): void;
  /** Notes the owner of a response the gateway keeps (already written to the database) for quick lookups. */
  rememberKept(id: string, userId: number): void;
  /** Responses the gateway keeps itself (channels without Responses state). */
  kept: KeptResponses;
  /** Owners of the output items of responses an upstream keeps, for item_reference. */
  items: UpstreamItemOwners;
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

interface ResponseOwnersOptions {
  db: Db;
  logger: Logger;
  redis?: RedisContext | undefined;
  flushIntervalMs: number;
  /** How long an id is remembered; OpenAI keeps stored responses 30 days. */
  retentionMs?: number;
  /** How long a response the gateway keeps lives (the usage-log retention); null: until deleted. */
  keptRetentionMs?: number | null;
  /** Ids kept in memory (the most recent); older ones are found in Redis or the database. */
  memoryEntries?: number;
}

const RESPONSE_RETENTION_MS = 30 * 86_400_000;
/** Longer strings are not ids any upstream issues; refused without a lookup. */
const MAX_RESPONSE_ID_LENGTH = 256;

export function createResponseOwners(options: ResponseOwnersOptions): ResponseOwners {
  const retentionMs = options.retentionMs ?? RESPONSE_RETENTION_MS;
  const memoryEntries = options.memoryEntries ?? 50_000;
  const recent = createRecentIds<ResponseOwner>(memoryEntries);
  const redisKey = (id: string) => `${options.redis!.prefix}resp:${id}`;

  const queue = createWriteBehindQueue<ResponseOwnerRow>({
    intervalMs: options.flushIntervalMs,
    maxBatch: 500,
    write: (rows) => insertResponseOwnerBatch(options.db, rows),
    onError: (error, rows) => options.logger.error({ err: error, responses: rows.length }, 'response ids could not be written; they will be retried'),
  });

  const kept = createKeptResponses({ db: options.db, retentionMs: options.keptRetentionMs === undefined ? retentionMs : options.keptRetentionMs });
  const items = createUpstreamItemOwners({ db: options.db, logger: options.logger, redis: options.redis, flushIntervalMs: options.flushIntervalMs, retentionMs, memoryEntries });

  const remember = (id: string, owner: ResponseOwner) => {
    // Ids are unique upstream; should one repeat, the first owner keeps it (as the database row does).
    const earlier = recent.get(id);
    if (earlier && earlier.userId !== owner.userId) return;
    recent.set(id, owner);
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    deleteExpiredResponses(options.db, now)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'sweeping expired response ids failed'));
  }, 3_600_000);
  sweep.unref();

  return {
    kept,
    items,
    rememberKept: (id, userId) => remember(id, { userId, channelId: null, keptBy: 'gateway' }),
    remember(response) {
      if (!response.id || response.id.length > MAX_RESPONSE_ID_LENGTH) return;
      const owner: ResponseOwner = { userId: response.userId, channelId: response.channelId, keptBy: 'upstream' };
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
          const owner: ResponseOwner = { userId: Number(user), channelId: channel ? Number(channel) : null, keptBy: 'upstream' };
          remember(id, owner);
          return owner;
        }
      }
      const row = await findResponseLink(options.db, id);
      if (!row || row.deleted_at !== null || (row.expires_at !== null && row.expires_at < Date.now())) return null;
      const owner: ResponseOwner = { userId: row.user_id, channelId: row.channel_id, keptBy: row.state_kept_by === 'gateway' ? 'gateway' : 'upstream' };
      remember(id, owner);
      return owner;
    },
    async forget(id) {
      recent.delete(id);
      await options.redis?.redis.del(redisKey(id)).catch(() => 0);
      // The row may still be queued: write it first, so the deletion mark lands on it.
      await queue.flush();
      await markResponseDeleted(options.db, id);
      // A lookup that ran meanwhile may have cached it again from the not-yet-marked row.
      recent.delete(id);
    },
    flush: async () => {
      await queue.flush();
      await items.flush();
    },
    async close() {
      clearInterval(sweep);
      await queue.close();
      await items.close();
    },
  };
}
