// Before a Responses call is routed: the state it names, checked against its owner and, where the gateway
// keeps it, put back into the request. A previous_response_id the gateway keeps becomes the conversation so
// far (earlier inputs and outputs) ahead of the new input; an item_reference to a kept item becomes the item.
// Another user's ids, and unknown ones, get the 404 an unknown id gets.
import type { CachedKey } from '../accounts/key-index.ts';
import { invalidRequest, itemNotFound, previousResponseNotFound } from '../gateway-errors.ts';
import type { ResponseItem } from './kept-responses.ts';
import type { ResponseOwner, ResponseOwners } from './response-owners.ts';

/** More references than this in one request are refused: each is looked up. */
const MAX_ITEM_REFERENCES = 1000;

export interface ResolvedResponsesState {
  /** The owner of previous_response_id, when the request names one. */
  previous: (ResponseOwner & { id: string }) | null;
  /** This turn's input as items, references to kept items resolved: what a kept answer saves as its input. */
  turnInput: ResponseItem[];
  /** The body to translate (or send upstream) when state was put back into it; null when unchanged. */
  rebuilt: Record<string, unknown> | null;
  /** Items that came from the gateway's store (the rebuilt conversation and resolved references). */
  fromStore: Set<ResponseItem>;
}

const isReference = (item: unknown): item is { type: 'item_reference'; id?: unknown } =>
  item !== null && typeof item === 'object' && (item as { type?: unknown }).type === 'item_reference';

export async function resolveResponsesState(owners: ResponseOwners, key: CachedKey, body: Record<string, unknown>): Promise<ResolvedResponsesState> {
  const previousId = typeof body.previous_response_id === 'string' ? body.previous_response_id : null;
  const owner = previousId === null ? null : await owners.lookup(previousId);
  if (previousId !== null && (!owner || owner.userId !== key.userId)) throw previousResponseNotFound(previousId);
  const previous = owner && previousId !== null ? { ...owner, id: previousId } : null;

  const input = body.input;
  const items: unknown[] = typeof input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }] : Array.isArray(input) ? input : [];
  const fromStore = new Set<ResponseItem>();
  const references = items.map((item, i) => ({ item, i })).filter(({ item }) => isReference(item));
  let resolvedAny = false;
  if (references.length > MAX_ITEM_REFERENCES) throw invalidRequest(`Too many item references: at most ${MAX_ITEM_REFERENCES} in one request.`, 'input', 'invalid_value');
  if (references.length > 0) {
    const ids = references.map(({ item, i }) => {
      const id = (item as { id?: unknown }).id;
      if (typeof id !== 'string' || id === '') throw invalidRequest(`Invalid value for 'input[${i}].id': name the item to reference.`, `input[${i}].id`);
      return id;
    });
    const known = await owners.kept.items(key.userId, ids);
    for (const [n, { i }] of references.entries()) {
      const id = ids[n]!;
      const kept = known.get(id);
      if (kept) {
        items[i] = kept;
        fromStore.add(kept);
        resolvedAny = true;
      } else if (kept === null || (await owners.items.ownedBy(key.userId, id))) {
        // The user's item, kept upstream: the reference goes to the channel as it is.
      } else {
        throw itemNotFound(id, `input[${i}]`);
      }
    }
  }
  const turnInput = items as ResponseItem[];
  if (previous?.keptBy !== 'gateway') {
    return { previous, turnInput, rebuilt: resolvedAny ? { ...body, input: turnInput } : null, fromStore };
  }
  const conversation = await owners.kept.conversation(previous.id, key.userId);
  // Known to this instance's memory, but deleted or expired since: unknown, as for anyone.
  if (conversation === null) throw previousResponseNotFound(previous.id);
  for (const item of conversation) fromStore.add(item);
  const { previous_response_id: _kept, ...rest } = body;
  return { previous, turnInput, rebuilt: { ...rest, input: [...conversation, ...turnInput] }, fromStore };
}

/**
 * The rebuilt body for an OpenAI-type upstream: items from the gateway's store lose their ids (the
 * upstream never issued them) and reasoning items are left out (their content is another provider's).
 */
export function rebuiltForUpstream(rebuilt: Record<string, unknown>, fromStore: ReadonlySet<ResponseItem>): Record<string, unknown> {
  const input = (rebuilt.input as ResponseItem[]).flatMap((item) => {
    if (!fromStore.has(item)) return [item];
    if (item.type === 'reasoning') return [];
    const { id: _gatewayId, status: _status, ...rest } = item;
    return [rest];
  });
  return { ...rebuilt, input };
}
