// The stored-response endpoints for a response the gateway keeps, in OpenAI's shapes: the Response object
// (or, with stream=true, its events replayed: replay-kept-response.ts), its input items as a paged list, a deletion, and the cancel refusal OpenAI gives a foreground response.
import { invalidRequest, responseNotFound } from '../gateway-errors.ts';
import type { RelayResult } from '../relay/relay-types.ts';
import type { ResponseOwners } from './response-owners.ts';
import type { StoredResponseRequest } from './stored-response-relay.ts';
import { keptResponseEvents, replayStream, startingAfterOf } from './replay-kept-response.ts';

const json = (body: unknown): RelayResult => ({ kind: 'buffer', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export async function serveKeptResponse(owners: ResponseOwners, request: StoredResponseRequest): Promise<RelayResult> {
  const { id, key } = request;
  // The owner was checked; the row is read again, so a response deleted or expired meanwhile is unknown.
  const response = await owners.kept.response(id, key.userId);
  if (!response) throw responseNotFound(id);
  switch (request.action) {
    case 'retrieve': {
      const query = new URLSearchParams(request.query);
      if (query.get('stream') !== 'true') return json(response);
      // Built before the status goes out, so a bad starting_after is a 400, not a broken stream.
      const events = keptResponseEvents(response, startingAfterOf(query));
      return { kind: 'stream', status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }, body: replayStream(events) };
    }
    case 'input_items':
      return json(await owners.kept.inputItems(id, new URLSearchParams(request.query)));
    case 'delete':
      await owners.kept.delete(id);
      await owners.forget(id);
      return json({ id, object: 'response', deleted: true });
    case 'cancel':
      throw invalidRequest('Only responses created with background set to true can be cancelled.', null);
  }
}
