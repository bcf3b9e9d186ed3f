// Who owns the output items of responses an upstream keeps (OpenAI-type channels). An `item_reference`
// names an item by id, and the upstream hands any item to whoever presents its id with the channel's
// credentials, so the gateway relays a reference only for the user whose response produced the item.
//
// Recorded like response owners: a Map insert, a row written behind in batches (response_items with no
// item_json) and, with Redis, a fire-and-forget SET so other instances know the item at once. The database
// rows are read by the kept-response store's item lookup; memory and Redis cover the write-behind gap.
import type { Logger } from 'pino';
import type { ResponseItemsTable } from '../db/schema.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { insertResponseItemOwners } from '../db/repositories/responses.ts';
import type { RedisContext } from '../cluster/redis-connection.ts';
import { createWriteBehindQueue } from '../metering/write-behind-queue.ts';
import { createRecentIds } from './recent-ids.ts';

/** Items recorded per response: a Responses answer rarely has more; the rest cannot be referenced. */
const MAX_RECORDED_ITEMS = 64;
const MAX_ITEM_ID_LENGTH = 256;

export interface UpstreamItemOwners {
  remember(responseId: string, userId: number, itemIds: readonly string[]): void;
  /** Whether memory or Redis know the item as this user's (the database is asked by the caller). */
  ownedBy(userId: number, itemId: string): Promise<boolean>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface UpstreamItemOwnersOptions {
  db: Db;
  logger: Logger;
  redis?: RedisContext | undefined;
  flushIntervalMs: number;
  retentionMs: number;
  memoryEntries: number;
}

export function createUpstreamItemOwners(options: UpstreamItemOwnersOptions): UpstreamItemOwners {
  const recent = createRecentIds<number>(options.memoryEntries);
  const redisKey = (id: string) => `${options.redis!.prefix}resp-item:${id}`;
  const queue = createWriteBehindQueue<ResponseItemsTable>({
    intervalMs: options.flushIntervalMs,
    maxBatch: 500,
    write: (rows) => insertResponseItemOwners(options.db, rows),
    onError: (error, rows) => options.logger.error({ err: error, items: rows.length }, 'response item owners could not be written; they will be retried'),
  });

  return {
    remember(responseId, userId, itemIds) {
      const now = Date.now();
      const ids = itemIds.filter((id) => id !== '' && id.length <= MAX_ITEM_ID_LENGTH).slice(0, MAX_RECORDED_ITEMS);
      if (ids.length === 0) return;
      ids.forEach((id, position) => {
        recent.set(id, userId);
        queue.enqueue({ response_id: responseId, position, user_id: userId, item_id: id, kind: 'output', item_json: null, created_at: now, expires_at: now + options.retentionMs });
      });
      if (options.redis) {
        const pipeline = options.redis.redis.pipeline();
        for (const id of ids) pipeline.set(redisKey(id), String(userId), 'PX', options.retentionMs);
        pipeline.exec().catch((error: unknown) => options.logger.warn({ err: error }, 'sharing response item owners over Redis failed; other instances will read them from the database'));
      }
    },
    async ownedBy(userId, itemId) {
      if (itemId.length === 0 || itemId.length > MAX_ITEM_ID_LENGTH) return false;
      const known = recent.get(itemId);
      if (known !== undefined) return known === userId;
      if (!options.redis) return false;
      const shared = await options.redis.redis.get(redisKey(itemId)).catch(() => null);
      return shared !== null && Number(shared) === userId;
    },
    flush: () => queue.flush(),
    close: () => queue.close(),
  };
}
