// Responses the gateway keeps itself, for channels with no Responses state of their own (Anthropic, Gemini,
// chat-only OpenAI-compatible servers). Each kept response is one `responses` row (state_kept_by 'gateway',
// the Response object in response_json) and one `response_items` row per input and output item, so that
// `previous_response_id` rebuilds the conversation, an `item_reference` finds its item and input_items
// pages through a response's input.
//
// Written synchronously, before the client sees the end of the answer: the next turn may arrive at once,
// on another instance, and must find it. Only stored (`store` not false) translated answers pay for this.
import { randomBytes } from 'node:crypto';
import { deleteKeptResponse, findResponse, findResponseLink, findUserItems, insertKeptResponse, listInputItems, listKeptItems } from '../db/repositories/responses.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { gatewayError } from '../gateway-errors.ts';

export type ResponseItem = Record<string, unknown>;

interface KeptResponse {
  id: string;
  userId: number;
  keyId: number | null;
  channelId: number | null;
  model: string;
  previousResponseId: string | null;
  /** This turn's input items (item references already resolved), without ids where the client gave none. */
  input: readonly ResponseItem[];
  /** The Response object the client received. */
  response: Record<string, unknown>;
}

interface InputItemsPage {
  object: 'list';
  data: ResponseItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

interface KeptResponsesOptions {
  db: Db;
  /** How long a kept response lives (the usage-log retention); null: until deleted. */
  retentionMs: number | null;
}

/** A kept response's input and output together, as JSON, at most this long: larger ones are not kept. */
export const MAX_KEPT_RESPONSE_CHARS = 4 * 1024 * 1024;
/** A rebuilt conversation spans at most this many responses and this many characters. */
export const MAX_CHAIN_RESPONSES = 256;
const MAX_CHAIN_CHARS = 16 * 1024 * 1024;

/** Ids for input items the client sent without one, so input_items and item_reference can name them. */
/** A message's text content as a part, the way OpenAI lists input items. */
const textPart = (role: unknown, text: string) => ({ type: role === 'assistant' ? 'output_text' : 'input_text', text });

/**
 * Input items as OpenAI lists them: typed, messages' text content as parts, and an id on each (the client's
 * own, else a new one), so input_items and item_reference can name them.
 */
function normalised(items: readonly ResponseItem[]): ResponseItem[] {
  return items.map((raw) => {
    const isMessage = raw.type === 'message' || (raw.type === undefined && raw.role !== undefined);
    const item: ResponseItem = isMessage ? { type: 'message', ...raw } : { ...raw };
    if (isMessage && typeof item.content === 'string') item.content = [textPart(item.role, item.content)];
    if (typeof item.id !== 'string' || item.id === '') item.id = `${isMessage ? 'msg' : 'item'}_${randomBytes(16).toString('hex')}`;
    return item;
  });
}

const chainTooLong = (id: string, why: string) =>
  gatewayError('GW_ERR_RESPONSE_CHAIN_TOO_LONG', {
    message: `The conversation continued from response '${id.slice(0, 256)}' is too long to rebuild (${why}); start a new one with the whole conversation in 'input'.`,
    param: 'previous_response_id',
    code: 'response_chain_too_long',
  });

export function createKeptResponses(options: KeptResponsesOptions) {
  const { db } = options;
  const live = (now: number) => (row: { expires_at: number | null; deleted_at?: number | null }) =>
    (row.deleted_at ?? null) === null && (row.expires_at === null || row.expires_at >= now);

  return {
    /** Saves a response and its items; false when it is over the size cap (and so not kept). */
    async save(kept: KeptResponse): Promise<boolean> {
      const input = normalised(kept.input);
      const output = Array.isArray(kept.response.output) ? (kept.response.output as ResponseItem[]) : [];
      const inputJson = input.map((item) => JSON.stringify(item));
      const outputJson = output.map((item) => JSON.stringify(item));
      const responseJson = JSON.stringify(kept.response);
      const size = responseJson.length + inputJson.reduce((sum, text) => sum + text.length, 0);
      if (size > MAX_KEPT_RESPONSE_CHARS) return false;
      const now = Date.now();
      const expiresAt = options.retentionMs === null ? null : now + options.retentionMs;
      const rows = [...input.map((item, i) => ({ item, json: inputJson[i]!, kind: 'input' as const })), ...output.map((item, i) => ({ item, json: outputJson[i]!, kind: 'output' as const }))]
        .map(({ item, json, kind }, position) => ({ response_id: kept.id, position, user_id: kept.userId, item_id: String(item.id ?? ''), kind, item_json: json, created_at: now, expires_at: expiresAt }));
      await insertKeptResponse(db, {
        id: kept.id, user_id: kept.userId, key_id: kept.keyId, channel_id: kept.channelId, model: kept.model.slice(0, 256),
        state_kept_by: 'gateway', response_json: responseJson, input_json: null, created_at: now, expires_at: expiresAt,
        deleted_at: null, previous_response_id: kept.previousResponseId,
      }, rows);
      return true;
    },

    /** The Response object of a kept response of this user, or null. */
    async response(id: string, userId: number): Promise<Record<string, unknown> | null> {
      const row = await findResponse(db, id);
      if (!row || row.user_id !== userId || row.state_kept_by !== 'gateway' || row.response === null || !live(Date.now())(row)) return null;
      return row.response;
    },

    /**
     * The conversation up to and including response `id`, oldest first: each response's input items then
     * its output items. The chain is walked through previous_response_id, bounded in length and size.
     * Null when `id` itself is not this user's live kept response (deleted or expired meanwhile, say).
     */
    async conversation(id: string, userId: number): Promise<ResponseItem[] | null> {
      const chain: string[] = [];
      const now = Date.now();
      let next: string | null = id;
      while (next !== null) {
        if (chain.length >= MAX_CHAIN_RESPONSES) throw chainTooLong(id, `more than ${MAX_CHAIN_RESPONSES} responses`);
        const row = await findResponseLink(db, next);
        // A link that expired or was deleted ends the conversation there, as the earliest turn kept.
        if (!row || row.user_id !== userId || row.state_kept_by !== 'gateway' || !live(now)(row)) break;
        chain.unshift(next);
        next = row.previous_response_id;
      }
      if (chain.length === 0) return null;
      const items: ResponseItem[] = [];
      let chars = 0;
      for (const responseId of chain) {
        for (const { item, chars: length } of await listKeptItems(db, responseId)) {
          chars += length;
          if (chars > MAX_CHAIN_CHARS) throw chainTooLong(id, `more than ${MAX_CHAIN_CHARS} characters`);
          items.push(item);
        }
      }
      return items;
    },

    /**
     * Items of this user's responses by id: the item itself when the gateway keeps it, null when an upstream
     * keeps it (its owner is recorded). Ids of other users' items, and unknown ones, are absent.
     */
    async items(userId: number, ids: readonly string[]): Promise<Map<string, ResponseItem | null>> {
      const found = new Map<string, ResponseItem | null>();
      if (ids.length === 0) return found;
      const now = Date.now();
      for (const row of await findUserItems(db, userId, ids)) {
        if (found.has(row.item_id) || !live(now)(row)) continue;
        found.set(row.item_id, row.item);
      }
      return found;
    },

    /** OpenAI's input_items list: `after` an item id, `limit` 1–100 (20), `order` asc or desc (desc). */
    async inputItems(id: string, query: URLSearchParams): Promise<InputItemsPage> {
      const order = query.get('order') === 'asc' ? 'asc' : 'desc';
      const limit = Math.min(100, Math.max(1, Number.parseInt(query.get('limit') ?? '20', 10) || 20));
      const rows = await listInputItems(db, id, order);
      const after = query.get('after');
      const start = after ? rows.findIndex((row) => row.item_id === after) + 1 : 0;
      const page = rows.slice(start, start + limit).map((row) => row.item);
      return { object: 'list', data: page, first_id: (page[0]?.id as string | undefined) ?? null, last_id: (page.at(-1)?.id as string | undefined) ?? null, has_more: start + limit < rows.length };
    },

    /** Deletes a kept response: its items go at once, its row stays marked so the id answers 404. */
    async delete(id: string): Promise<void> {
      await deleteKeptResponse(db, id);
    },
  };
}

export type KeptResponses = ReturnType<typeof createKeptResponses>;
