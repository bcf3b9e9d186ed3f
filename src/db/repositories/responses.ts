// Responses API ids and their owners (table `responses`), written in batches behind the hot path, and the
// responses the gateway keeps itself.
import type { Insertable } from 'kysely';
import { z } from 'zod';
import { CompiledQuery } from '../kysely-parts.ts';
import { engineOf, type DatabaseEngine } from '../engine.ts';
import { parseJsonColumn } from '../json-columns.ts';
import type { ResponseItemsTable, ResponsesTable } from '../schema.ts';
import { chunks, inTransaction, type Db } from './repository-helpers.ts';

export interface ResponseOwnerRow {
  id: string;
  user_id: number;
  key_id: number | null;
  channel_id: number | null;
  model: string;
  created_at: number;
  expires_at: number | null;
}

/** The columns an ownership row sets; state_kept_by ('upstream'), response_json, input_json and deleted_at keep their defaults. */
const COLUMNS = ['id', 'user_id', 'key_id', 'channel_id', 'model', 'created_at', 'expires_at'] as const satisfies readonly (keyof ResponseOwnerRow)[];

// Fixed statement sizes, as for usage logs: a handful of SQL texts that stay prepared, and no pass through
// Kysely's query compiler, which costs more than the insert itself at this size.
const STATEMENT_SIZES = [128, 32, 8, 1] as const;
const sqlCache = new Map<string, string>();

function insertSql(engine: DatabaseEngine, rows: number): string {
  const cacheKey = `${engine}:${rows}`;
  let text = sqlCache.get(cacheKey);
  if (!text) {
    let parameter = 0;
    const tuple = () => `(${COLUMNS.map(() => (engine === 'postgres' ? `$${++parameter}` : '?')).join(',')})`;
    // Ids are unique upstream; a repeat (a batch retried after a failure) keeps the first owner.
    text = `insert into responses (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, tuple).join(',')} on conflict (id) do nothing`;
    sqlCache.set(cacheKey, text);
  }
  return text;
}

export async function insertResponseOwnerBatch(db: Db, rows: readonly ResponseOwnerRow[]): Promise<void> {
  if (rows.length === 0) return;
  const engine = engineOf(db);
  await inTransaction(db, async (trx) => {
    let start = 0;
    while (start < rows.length) {
      const size = STATEMENT_SIZES.find((candidate) => candidate <= rows.length - start)!;
      const parameters: unknown[] = [];
      for (const row of rows.slice(start, start + size)) {
        for (const column of COLUMNS) parameters.push(row[column]);
      }
      await trx.executeQuery(CompiledQuery.raw(insertSql(engine, size), parameters));
      start += size;
    }
  });
}

// Responses the gateway keeps itself (src/responses/kept-responses.ts): the Response object in
// response_json and each item in response_items.item_json, read back parsed here.

/** A JSON object: a Response, or one of its input or output items. */
const jsonObjectColumn = z.record(z.string(), z.unknown());

type JsonObject = z.infer<typeof jsonObjectColumn>;

/** Bounded statements: items per insert stay well under the engines' parameter limits. */
const ITEMS_PER_STATEMENT = 100;

/** A kept response's row and its items' rows, in one transaction. */
export async function insertKeptResponse(db: Db, response: Insertable<ResponsesTable>, items: readonly Insertable<ResponseItemsTable>[]): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.insertInto('responses').values(response).execute();
    for (const slice of chunks(items, ITEMS_PER_STATEMENT)) await trx.insertInto('response_items').values(slice).execute();
  });
}

/** Item owners recorded behind the calls; an item already recorded keeps its first row. */
export async function insertResponseItemOwners(db: Db, items: readonly Insertable<ResponseItemsTable>[]): Promise<void> {
  for (const slice of chunks(items, ITEMS_PER_STATEMENT)) {
    await db.insertInto('response_items').values(slice).onConflict((c) => c.doNothing()).execute();
  }
}

/** A response's owner, state and life, with the Response object when the gateway keeps it (else null). */
export async function findResponse(db: Db, id: string) {
  const row = await db.selectFrom('responses').select(['user_id', 'state_kept_by', 'response_json', 'expires_at', 'deleted_at']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const { response_json, ...rest } = row;
  return { ...rest, response: response_json === null ? null : parseJsonColumn(jsonObjectColumn, response_json, `response '${id}': response_json`) };
}

/** A response's owner, state, life and link, without its Response object (an owner lookup, a step of a conversation's walk). */
export async function findResponseLink(db: Db, id: string) {
  return db.selectFrom('responses').select(['user_id', 'channel_id', 'state_kept_by', 'previous_response_id', 'expires_at', 'deleted_at']).where('id', '=', id).executeTakeFirst();
}

/**
 * A response's kept items in order, each parsed with the length of its stored text (what bounds a rebuilt
 * conversation); items an upstream keeps have no text and are left out.
 */
export async function listKeptItems(db: Db, responseId: string): Promise<{ item: JsonObject; chars: number }[]> {
  const rows = await db.selectFrom('response_items').select('item_json').where('response_id', '=', responseId).orderBy('position').execute();
  return rows.flatMap((row) => (row.item_json === null ? [] : [{ item: parseJsonColumn(jsonObjectColumn, row.item_json, `an item of response '${responseId}'`), chars: row.item_json.length }]));
}

/**
 * This user's items by id, newest first, with whether their response is deleted: the item when the gateway
 * keeps it, null when an upstream does.
 */
export async function findUserItems(db: Db, userId: number, ids: readonly string[]) {
  const rows = await db.selectFrom('response_items').innerJoin('responses', 'responses.id', 'response_items.response_id')
    .select(['response_items.item_id', 'response_items.item_json', 'response_items.expires_at', 'responses.deleted_at'])
    .where('response_items.user_id', '=', userId).where('response_items.item_id', 'in', [...new Set(ids)])
    .orderBy('response_items.created_at', 'desc').execute();
  return rows.map(({ item_json, ...row }) => ({ ...row, item: item_json === null ? null : parseJsonColumn(jsonObjectColumn, item_json, `item '${row.item_id}'`) }));
}

/** A response's input items, by position in `order`; an item without text reads as {}. */
export async function listInputItems(db: Db, responseId: string, order: 'asc' | 'desc'): Promise<{ item_id: string; item: JsonObject }[]> {
  const rows = await db.selectFrom('response_items').select(['item_id', 'item_json']).where('response_id', '=', responseId).where('kind', '=', 'input').orderBy('position', order).execute();
  return rows.map((row) => ({ item_id: row.item_id, item: parseJsonColumn(jsonObjectColumn, row.item_json ?? '{}', `item '${row.item_id}'`) }));
}

/** Deletes a kept response: its items at once, its row kept and marked (response_json dropped) so the id answers 404. */
export async function deleteKeptResponse(db: Db, id: string, now = Date.now()): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('response_items').where('response_id', '=', id).execute();
    await trx.updateTable('responses').set({ deleted_at: now, response_json: null }).where('id', '=', id).execute();
  });
}

/** Marks a response (an upstream's) deleted, so its id answers 404. */
export async function markResponseDeleted(db: Db, id: string, now = Date.now()): Promise<void> {
  await db.updateTable('responses').set({ deleted_at: now }).where('id', '=', id).execute();
}

/** The hourly sweep: items and responses past their expiry. */
export async function deleteExpiredResponses(db: Db, now: number): Promise<void> {
  await db.deleteFrom('response_items').where('expires_at', '<', now).execute();
  await db.deleteFrom('responses').where('expires_at', '<', now).execute();
}
