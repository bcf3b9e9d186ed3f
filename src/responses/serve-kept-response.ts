// The stored-response endpoints for a response the gateway keeps, in OpenAI's shapes: the Response object
// (or, with stream=true, its events replayed: replay-kept-response.ts), its input items as a paged list, a deletion, and the cancel refusal OpenAI gives a foreground response.
import { invalidRequest, responseNotFound } from '../gateway-errors.ts';
import type { RelayResult } from '../relay/relay-types.ts';
import type { ResponseOwners } from './response-owners.ts';
import type { StoredResponseRequest } from './stored-response-request.ts';
import { ENCRYPTED_REASONING, responseWithoutEncryptedReasoning, withoutEncryptedReasoning } from '../formats/openai-responses/openai-responses-include.ts';
import { keptResponseEvents, replayStream, startingAfterOf } from './replay-kept-response.ts';

const json = (body: unknown): RelayResult => ({ kind: 'buffer', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export async function serveKeptResponse(owners: ResponseOwners, request: StoredResponseRequest): Promise<RelayResult> {
  const { id, key } = request;
  // The owner was checked; the row is read again, so a response deleted or expired meanwhile is unknown.
  const kept = await owners.kept.response(id, key.userId);
  if (!kept) throw responseNotFound(id);
  const query = new URLSearchParams(request.query);
  // Kept whole; encrypted reasoning is shown only when the query's include asks for it, as on OpenAI.
  const sealed = [...query.getAll('include'), ...query.getAll('include[]')].includes(ENCRYPTED_REASONING);
  const response = sealed ? kept : responseWithoutEncryptedReasoning(kept);
  switch (request.action) {
    case 'retrieve': {
      if (query.get('stream') !== 'true') return json(response);
      // Built before the status goes out, so a bad starting_after is a 400, not a broken stream.
      const events = keptResponseEvents(response, startingAfterOf(query));
      return { kind: 'stream', status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }, body: replayStream(events) };
    }
    case 'input_items': {
      const page = await owners.kept.inputItems(id, query);
      return json(sealed ? page : { ...page, data: page.data.map(withoutEncryptedReasoning) });
    }
    case 'delete':
      await owners.kept.delete(id);
      await owners.forget(id);
      return json({ id, object: 'response', deleted: true });
    case 'cancel':
      throw invalidRequest('Only responses created with background set to true can be cancelled.', null);
  }
}
